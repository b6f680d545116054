#ifndef ACTIVETASKKIT_CDBUS_H
#define ACTIVETASKKIT_CDBUS_H
// libdbus-1's declarations, and its functions loaded on first use (dlopen) instead of linked:
// libdbus-1 brings libsystemd and its compression and crypto libraries into every command's
// address space and start-up, and only a ble: source needs them. Call libdbus-1 only through
// atk_dbus_load()'s table.
#include <dbus/dbus.h>

// Every function the BlueZ source calls.
#define ATK_DBUS_FUNCTIONS(X) \
    X(dbus_error_init) \
    X(dbus_error_free) \
    X(dbus_error_is_set) \
    X(dbus_bus_get_private) \
    X(dbus_bus_add_match) \
    X(dbus_connection_set_exit_on_disconnect) \
    X(dbus_connection_close) \
    X(dbus_connection_unref) \
    X(dbus_connection_get_is_connected) \
    X(dbus_connection_send_with_reply_and_block) \
    X(dbus_connection_read_write) \
    X(dbus_connection_pop_message) \
    X(dbus_message_new_method_call) \
    X(dbus_message_unref) \
    X(dbus_message_get_type) \
    X(dbus_message_get_path) \
    X(dbus_message_get_interface) \
    X(dbus_message_get_member) \
    X(dbus_message_iter_init) \
    X(dbus_message_iter_next) \
    X(dbus_message_iter_get_arg_type) \
    X(dbus_message_iter_get_element_type) \
    X(dbus_message_iter_get_basic) \
    X(dbus_message_iter_get_fixed_array) \
    X(dbus_message_iter_recurse)

/// libdbus-1's functions, each with its own type.
struct atk_dbus {
#define ATK_DBUS_FIELD(name) __typeof__(name) *name;
    ATK_DBUS_FUNCTIONS(ATK_DBUS_FIELD)
#undef ATK_DBUS_FIELD
};

/// The table, every entry set, after loading libdbus-1.so.3 (once per process); NULL when it
/// cannot be loaded, `*message` then says why.
const struct atk_dbus *atk_dbus_load(const char **message);
#endif
