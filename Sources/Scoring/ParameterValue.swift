import Analysis
import SensorData

/// A parameter's value type as it appears in a configuration.
public protocol ParameterValue {
    /// The value as a configuration's JSON holds it.
    var parameterJSON: JSONValue { get }
}

extension Double: ParameterValue { public var parameterJSON: JSONValue { .number(self) } }
extension Int: ParameterValue { public var parameterJSON: JSONValue { .number(Double(self)) } }
extension String: ParameterValue { public var parameterJSON: JSONValue { .string(self) } }
extension Bool: ParameterValue { public var parameterJSON: JSONValue { .bool(self) } }
extension ParameterValue where Self: RawRepresentable, RawValue == String {
    public var parameterJSON: JSONValue { .string(rawValue) }
}
extension TappingAnalysis.Convention: ParameterValue {}
extension MotionCSVLayout.TimeUnit: ParameterValue {}
extension MotionCSVLayout.AccelerationUnit: ParameterValue {}
extension HeadphoneCalibration.TableVersion: ParameterValue {}
extension RangeOfMotion.Orientation: ParameterValue {}
extension CameraHeartRate.Method: ParameterValue {}
extension VoiceSet: ParameterValue {}
extension Array: ParameterValue where Element: ParameterValue {
    public var parameterJSON: JSONValue { .array(map(\.parameterJSON)) }
}
