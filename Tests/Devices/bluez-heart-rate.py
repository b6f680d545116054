#!/usr/bin/python3
"""A BlueZ stand-in for BLEHeartRateTests: exports, on the bus DBUS_SYSTEM_BUS_ADDRESS names, the
org.bluez objects a heart-rate strap has (ObjectManager at /, Device1, GattService1 0x180D,
GattCharacteristic1 0x2A37 with StartNotify/StopNotify), and once notifications are started plays
the script's events every `interval` seconds:

  {"value": "16 48 00 04"}   a notification (PropertiesChanged of Value)
  {"drop": true}             the link drops (Device1.Connected false); Device1.Connect restores it
                             and StartNotify resumes the events
  {"remove": true}           the device goes away (InterfacesRemoved); it never comes back

Usage: bluez-heart-rate.py SCRIPT.json   (address, name, interval, events; writes READY to stdout)
"""
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

PROPERTIES = "org.freedesktop.DBus.Properties"
script = json.load(open(sys.argv[1]))
address = script["address"]
device_path = "/org/bluez/hci0/dev_" + address.replace(":", "_")
service_path = device_path + "/service000c"
char_path = service_path + "/char000d"

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
name = dbus.service.BusName("org.bluez", bus)
state = {"connected": True, "notifying": False, "next": 0, "removed": False}


class Root(dbus.service.Object):
    @dbus.service.method("org.freedesktop.DBus.ObjectManager", out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        objects = {dbus.ObjectPath("/org/bluez/hci0"): {"org.bluez.Adapter1": {"Address": "00:11:22:33:44:55", "Powered": True}}}
        if not state["removed"]:
            objects[dbus.ObjectPath(device_path)] = {"org.bluez.Device1": {
                "Address": address, "Name": script["name"], "Connected": dbus.Boolean(state["connected"]),
                "ServicesResolved": dbus.Boolean(state["connected"])}}
            if state["connected"]:
                objects[dbus.ObjectPath(service_path)] = {"org.bluez.GattService1": {
                    "UUID": "0000180d-0000-1000-8000-00805f9b34fb", "Primary": True, "Device": dbus.ObjectPath(device_path)}}
                objects[dbus.ObjectPath(char_path)] = {"org.bluez.GattCharacteristic1": {
                    "UUID": "00002a37-0000-1000-8000-00805f9b34fb", "Service": dbus.ObjectPath(service_path),
                    "Flags": dbus.Array(["notify"], signature="s"), "Notifying": dbus.Boolean(state["notifying"])}}
        return objects

    @dbus.service.signal("org.freedesktop.DBus.ObjectManager", signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class Changing(dbus.service.Object):
    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Device(Changing):
    @dbus.service.method("org.bluez.Device1")
    def Connect(self):
        if state["removed"]:
            raise dbus.exceptions.DBusException("Device gone", name="org.bluez.Error.DoesNotExist")
        if not state["connected"]:
            state["connected"] = True
            self.PropertiesChanged("org.bluez.Device1", {"Connected": True, "ServicesResolved": True}, [])

    @dbus.service.method("org.bluez.Device1")
    def Disconnect(self):
        state["connected"] = False


class Characteristic(Changing):
    @dbus.service.method("org.bluez.GattCharacteristic1")
    def StartNotify(self):
        if not state["connected"]:
            raise dbus.exceptions.DBusException("Not connected", name="org.bluez.Error.NotConnected")
        state["notifying"] = True

    @dbus.service.method("org.bluez.GattCharacteristic1")
    def StopNotify(self):
        state["notifying"] = False


root = Root(bus, "/")
device = Device(bus, device_path)
characteristic = Characteristic(bus, char_path)


def tick():
    if not state["notifying"] or not state["connected"] or state["next"] >= len(script["events"]):
        return True
    event = script["events"][state["next"]]
    state["next"] += 1
    if "value" in event:
        value = dbus.Array(bytes.fromhex(event["value"]), signature="y")
        characteristic.PropertiesChanged("org.bluez.GattCharacteristic1", {"Value": value}, [])
    elif event.get("drop"):
        state["connected"] = False
        state["notifying"] = False
        device.PropertiesChanged("org.bluez.Device1", {"Connected": False, "ServicesResolved": False}, [])
    elif event.get("remove"):
        state["removed"] = True
        state["connected"] = False
        root.InterfacesRemoved(dbus.ObjectPath(device_path), ["org.bluez.Device1"])
    return True


GLib.timeout_add(int(script.get("interval", 0.02) * 1000), tick)
print("READY", flush=True)
GLib.MainLoop().run()
