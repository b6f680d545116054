import Foundation

/// Attitude from a gyroscope and an accelerometer: Madgwick's gradient-descent IMU filter
/// (S. O. H. Madgwick, A. J. L. Harrison, R. Vaidyanathan, "Estimation of IMU and MARG orientation
/// using a gradient descent algorithm", IEEE ICORR 2011, eqs. 11–13 and 25–26, with the IMU
/// objective of gravity alone).
///
/// The quaternion `q = (w, x, y, z)` is the device's orientation relative to a reference frame
/// whose z axis points up and whose yaw starts at 0 (Core Motion's `xArbitraryZVertical`): a
/// positive rate about z from rest turns `q` to `(cos(θ/2), 0, 0, sin(θ/2))`, as Core Motion's
/// attitude does. Each step integrates `q̇ = ½ q ⊗ (0, ω) − β ∇f/‖∇f‖` over `Δt` (first-order, as in
/// the paper) and normalises; `f` is the difference between the gravity direction `q` predicts in
/// the device frame and the measured specific force (the accelerometer at rest reads +g up, as the
/// Linux IIO ABI does). The first sample sets roll and pitch from the accelerometer, yaw 0.
public struct OrientationFilter: Sendable {
    /// The gain β (rad/s): the paper's gyroscope-error bound; 0.1 as in its reference implementation.
    public var beta: Double
    public private(set) var q: (w: Double, x: Double, y: Double, z: Double) = (1, 0, 0, 0)
    private var started = false

    public init(beta: Double = 0.1) { self.beta = beta }

    /// The unit "up" direction in the device frame that `q` predicts (what a still accelerometer reads, normalised).
    public var up: (x: Double, y: Double, z: Double) {
        let (w, x, y, z) = q
        return (2 * (x * z - w * y), 2 * (w * x + y * z), w * w - x * x - y * y + z * z)
    }

    /// One step: angular rate `gyro` (rad/s, device frame), specific force `accel` (any unit,
    /// device frame, +up at rest), over `seconds`.
    public mutating func update(gyro: (x: Double, y: Double, z: Double), accel: (x: Double, y: Double, z: Double), seconds: Double) {
        let norm = (accel.x * accel.x + accel.y * accel.y + accel.z * accel.z).squareRoot()
        guard norm.isFinite else { return }
        let a = norm > 0 ? (accel.x / norm, accel.y / norm, accel.z / norm) : (0.0, 0.0, 0.0)
        if !started {
            started = true
            if norm > 0 {
                // Roll about x and pitch about y that bring "up" onto the measured direction.
                let roll = atan2(a.1, a.2), pitch = atan2(-a.0, (a.1 * a.1 + a.2 * a.2).squareRoot())
                let (cr, sr, cp, sp) = (cos(roll / 2), sin(roll / 2), cos(pitch / 2), sin(pitch / 2))
                q = (cr * cp, sr * cp, cr * sp, -sr * sp)
            }
            return
        }
        var (w, x, y, z) = q
        // Rate of change from the gyroscope: ½ q ⊗ (0, ω).
        var dw = 0.5 * (-x * gyro.x - y * gyro.y - z * gyro.z)
        var dx = 0.5 * (w * gyro.x + y * gyro.z - z * gyro.y)
        var dy = 0.5 * (w * gyro.y - x * gyro.z + z * gyro.x)
        var dz = 0.5 * (w * gyro.z + x * gyro.y - y * gyro.x)
        if norm > 0 {
            // f(q, a) (eq. 25) and its gradient Jᵀf (eq. 26, with eq. 20's J for gravity).
            let f0 = 2 * (x * z - w * y) - a.0
            let f1 = 2 * (w * x + y * z) - a.1
            let f2 = 2 * (0.5 - x * x - y * y) - a.2
            var gw = -2 * y * f0 + 2 * x * f1
            var gx = 2 * z * f0 + 2 * w * f1 - 4 * x * f2
            var gy = -2 * w * f0 + 2 * z * f1 - 4 * y * f2
            var gz = 2 * x * f0 + 2 * y * f1
            let gradient = (gw * gw + gx * gx + gy * gy + gz * gz).squareRoot()
            if gradient > 0 {
                (gw, gx, gy, gz) = (gw / gradient, gx / gradient, gy / gradient, gz / gradient)
                dw -= beta * gw
                dx -= beta * gx
                dy -= beta * gy
                dz -= beta * gz
            }
        }
        w += dw * seconds
        x += dx * seconds
        y += dy * seconds
        z += dz * seconds
        let length = (w * w + x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { return }
        q = (w / length, x / length, y / length, z / length)
    }
}
