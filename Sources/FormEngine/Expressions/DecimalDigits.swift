/// A finite, non-zero double as its shortest decimal digits, for printing without an exponent
/// and for rounding at a decimal place as people do.
struct DecimalDigits {
    var isNegative: Bool
    /// The significant digits, without leading or trailing zeros.
    var digits: [UInt8]
    /// How many of `digits` come before the decimal point; may be negative or exceed the count.
    var pointPosition: Int

    init(_ value: Double) {
        isNegative = value.sign == .minus
        // Swift prints the shortest digits that read back as the same double (as XPath asks);
        // only the exponent has to be worked out of the way.
        let text = abs(value).description
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "."): pointPosition = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                exponent = Int(Substring(utf8)) ?? 0
                utf8 = utf8[utf8.endIndex...]
            default: break
            }
        }
        var point = (pointPosition ?? digits.count) + exponent
        while digits.count > 1, digits.first == 0 {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == 0 { digits.removeLast() }
        self.digits = digits
        self.pointPosition = point
    }

    /// The number written out in full: `1000000000000000000000`, `0.0000001`, `-12.5`.
    var plainString: String {
        var bytes: [UInt8] = isNegative ? [UInt8(ascii: "-")] : []
        let zero = UInt8(ascii: "0")
        if digits.isEmpty || digits == [0] { return "0" }
        if pointPosition <= 0 {
            bytes += [zero, UInt8(ascii: ".")]
            bytes += repeatElement(zero, count: -pointPosition)
            bytes += digits.map { $0 + zero }
        } else if pointPosition >= digits.count {
            bytes += digits.map { $0 + zero }
            bytes += repeatElement(zero, count: pointPosition - digits.count)
        } else {
            bytes += digits[..<pointPosition].map { $0 + zero }
            bytes.append(UInt8(ascii: "."))
            bytes += digits[pointPosition...].map { $0 + zero }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Rounded to `decimals` places (negative: to tens, hundreds…), halves upwards as XPath and
    /// JavaRosa round them (`round(-2.5)` is -2), on the decimal digits so that
    /// `round(1.005, 2)` is 1.01 as written.
    func rounded(toDecimals decimals: Int) -> Double {
        let keep = pointPosition + decimals
        if keep >= digits.count { return value }
        if keep < 0 { return isNegative ? -0.0 : 0 }
        var result = self
        result.digits = Array(digits[..<keep])
        // `digits` has no trailing zeros: a 5 last is exactly half.
        let isHalf = digits[keep] == 5 && keep == digits.count - 1
        if digits[keep] >= 5, !(isHalf && isNegative) {
            var index = keep - 1
            while index >= 0, result.digits[index] == 9 {
                result.digits[index] = 0
                index -= 1
            }
            if index >= 0 {
                result.digits[index] += 1
            } else {
                result.digits.insert(1, at: 0)
                result.pointPosition += 1
            }
        }
        if result.digits.isEmpty { return isNegative ? -0.0 : 0 }
        return result.value
    }

    var value: Double {
        var mantissa = self
        mantissa.isNegative = false
        let magnitude = Double(mantissa.plainString) ?? .nan
        return isNegative ? -magnitude : magnitude
    }
}
