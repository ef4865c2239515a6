/// CEL's `+ - * / %`: both operands of one type (no implicit conversion, as CEL), 64-bit
/// integer overflow and division by zero are errors, doubles follow IEEE 754; strings, bytes
/// and lists concatenate; timestamps and durations add and subtract.
enum CELArithmetic {
    typealias Outcome = Result<CELValue, CELEvaluationError>

    private static func failure(_ message: String) -> Outcome { .failure(CELEvaluationError(message: message)) }

    static func apply(_ op: CELBinaryOperator, _ l: CELValue, _ r: CELValue) -> Outcome {
        switch (l, r) {
        case (.int(let a), .int(let b)):
            return integer(op, a, b).map(CELValue.int)
        case (.uint(let a), .uint(let b)):
            return integer(op, a, b).map(CELValue.uint)
        case (.double(let a), .double(let b)):
            switch op {
            case .add: return .success(.double(a + b))
            case .subtract: return .success(.double(a - b))
            case .multiply: return .success(.double(a * b))
            case .divide: return .success(.double(a / b))
            default: break
            }
        case (.string(let a), .string(let b)) where op == .add:
            return .success(.string(a + b))
        case (.bytes(let a), .bytes(let b)) where op == .add:
            return .success(.bytes(a + b))
        case (.list(let a), .list(let b)) where op == .add:
            return .success(.list(a + b))
        case (.duration(let a), .duration(let b)) where op == .add || op == .subtract:
            return integer(op, a, b).map { CELValue.duration(nanoseconds: $0) }
        case (.timestamp(let s, let n), .duration(let d)) where op == .add || op == .subtract:
            return shifted(seconds: s, nanos: n, by: op == .add ? d : -d)
        case (.duration(let d), .timestamp(let s, let n)) where op == .add:
            return shifted(seconds: s, nanos: n, by: d)
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)) where op == .subtract:
            let (seconds, overflow) = (s1 - s2).multipliedReportingOverflow(by: 1_000_000_000)
            guard !overflow else { return failure("duration overflow") }
            return integer(.add, seconds, Int64(n1) - Int64(n2)).map { CELValue.duration(nanoseconds: $0) }
        default:
            break
        }
        return failure(
            "no such overload: \(l.typeName) \(op.rawValue) \(r.typeName) (CEL converts no types: write int(), uint() or double())"
        )
    }

    private static func integer<I: FixedWidthInteger>(_ op: CELBinaryOperator, _ a: I, _ b: I) -> Result<I, CELEvaluationError> {
        let result: (partialValue: I, overflow: Bool)
        switch op {
        case .add: result = a.addingReportingOverflow(b)
        case .subtract: result = a.subtractingReportingOverflow(b)
        case .multiply: result = a.multipliedReportingOverflow(by: b)
        case .divide:
            guard b != 0 else { return .failure(CELEvaluationError(message: "division by zero")) }
            result = a.dividedReportingOverflow(by: b)
        default:
            guard b != 0 else { return .failure(CELEvaluationError(message: "modulus by zero")) }
            result = a.remainderReportingOverflow(dividingBy: b)
        }
        guard !result.overflow else {
            return .failure(
                CELEvaluationError(message: "\(I.self == UInt64.self ? "uint" : "int") overflow in \(a) \(op.rawValue) \(b)"))
        }
        return .success(result.partialValue)
    }

    private static func shifted(seconds: Int64, nanos: Int32, by nanoseconds: Int64) -> Outcome {
        let total = Int64(nanos) + nanoseconds % 1_000_000_000
        var newSeconds = seconds + nanoseconds / 1_000_000_000 + total.floorDivided(by: 1_000_000_000)
        var newNanos = total - total.floorDivided(by: 1_000_000_000) * 1_000_000_000
        if newNanos < 0 {
            newNanos += 1_000_000_000
            newSeconds -= 1
        }
        guard newSeconds >= CELTime.minimumSeconds, newSeconds <= CELTime.maximumSeconds else {
            return failure("timestamp out of range (years 1 to 9999)")
        }
        return .success(.timestamp(seconds: newSeconds, nanos: Int32(newNanos)))
    }
}
