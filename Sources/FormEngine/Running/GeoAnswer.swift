import Foundation
import TwoWayBinding

/// A geopoint, geotrace or geoshape answer: the points typed or pasted in
/// the notations people copy coordinates in, checked, and written as XForms
/// stores them (`lat lon alt acc`, points joined by `;`, a shape ending on
/// its first point), as ODK Collect writes what its map gives.
///
/// Typed notations, each point on its own line or after a `;`:
/// - decimal degrees, with a comma or a space between: `48.8584, 2.2945`;
/// - XForms' own `lat lon alt acc` (`48.8584 2.2945 35 5`);
/// - hemisphere letters, before or after: `48.8584 N 2.2945 E`, `S 33.9 E 18.4`;
/// - degrees, minutes and seconds: `48°51'30.2"N 2°17'40.2"E`, or degrees
///   and decimal minutes: `48°51.503' N, 2°17.67' E`.
public enum GeoAnswer {
    /// Whether `type` is answered with coordinates.
    public static func isGeo(_ type: QuestionType) -> Bool {
        type == .geopoint || type == .geotrace || type == .geoshape
    }

    /// The points of a stored answer of `type`, checked as the answer is
    /// checked before a submit; the message when it is no such answer.
    public static func points(stored answer: String, for type: QuestionType) -> Result<[GeoPoint], GeoAnswerError> {
        var points: [GeoPoint] = []
        for part in answer.split(separator: ";") {
            let trimmed = part.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            guard let point = GeoPoint(String(trimmed)) else { return .failure(.notCoordinates(String(trimmed))) }
            points.append(point)
        }
        return check(points, for: type).map { _ in points }
    }

    /// The answer `text` gives a `type` question, as XForms stores it, or
    /// why it cannot be one. Blank text is a blank answer.
    public static func answer(typed text: String, for type: QuestionType) -> Result<String, GeoAnswerError> {
        var points: [GeoPoint] = []
        for line in text.split(whereSeparator: { $0 == ";" || $0.isNewline }) {
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            guard let point = typedPoint(String(trimmed)) else { return .failure(.notCoordinates(String(trimmed))) }
            points.append(point)
        }
        if points.isEmpty { return .success("") }
        // A shape is closed as Collect closes it: on its first point.
        if type == .geoshape, points.count > 1, points.first != points.last { points.append(points[0]) }
        return check(points, for: type).map { points in points.map(\.xformsText).joined(separator: ";") }
    }

    /// `points` when they make an answer of `type`.
    private static func check(_ points: [GeoPoint], for type: QuestionType) -> Result<[GeoPoint], GeoAnswerError> {
        for point in points {
            guard (-90...90).contains(point.latitude) else { return .failure(.latitudeOutOfRange(point.latitude)) }
            guard (-180...180).contains(point.longitude) else { return .failure(.longitudeOutOfRange(point.longitude)) }
            guard point.accuracy >= 0 else { return .failure(.negativeAccuracy) }
        }
        switch type {
        case .geopoint where points.count > 1:
            return .failure(.onePointOnly)
        case .geotrace where points.count == 1:
            return .failure(.traceNeedsTwoPoints)
        case .geoshape where !points.isEmpty:
            guard points.first == points.last, points.count > 1 else { return .failure(.shapeNotClosed) }
            var corners: [GeoPoint] = []
            for point in points.dropLast() where !corners.contains(point) { corners.append(point) }
            guard corners.count >= 3 else { return .failure(.shapeNeedsThreePoints) }
        default:
            break
        }
        return .success(points)
    }

    /// How a stored answer reads to a person: a point as degrees with its
    /// hemispheres (`48.858400° N, 2.294500° E`), a line by its points and
    /// length, a shape by its corners and area, with the reader's decimal
    /// mark; `nil` for a blank answer or one that is no such answer.
    public static func description(of answer: String, for type: QuestionType, separators: NumberSeparators = .posix) -> String? {
        guard case .success(let points) = self.points(stored: answer, for: type), !points.isEmpty else { return nil }
        func number(_ value: Double, places: Int) -> String {
            separators.withDecimalMark(String(format: "%.\(places)f", value))
        }
        switch type {
        case .geotrace:
            let metres = GeoPoint.distance(along: points)
            let length = metres >= 1000 ? number(metres / 1000, places: 2) + " km" : number(metres, places: 0) + " m"
            return tr("%@ points, %@ long", String(points.count), length)
        case .geoshape:
            let squareMetres = GeoPoint.area(of: points)
            let area = squareMetres >= 10_000 ? number(squareMetres / 10_000, places: 2) + " ha" : number(squareMetres, places: 0) + " m²"
            return tr("%@ corners, %@", String(points.count - 1), area)
        default:
            let point = points[0]
            let latitude = number(abs(point.latitude), places: 6) + "° " + (point.latitude < 0 ? tr("S") : tr("N"))
            let longitude = number(abs(point.longitude), places: 6) + "° " + (point.longitude < 0 ? tr("W") : tr("E"))
            let text = latitude + ", " + longitude
            return point.accuracy > 0 ? tr("%@ (within %@ m)", text, number(point.accuracy, places: 0)) : text
        }
    }

    // MARK: - One typed point

    /// One point in any of the typed notations.
    static func typedPoint(_ text: String) -> GeoPoint? {
        if let point = GeoPoint(text), !text.contains(",") { return point }
        let tokens = tokenize(text)
        // Decimal degrees with a comma and nothing else: `48.85, 2.29`.
        if tokens.allSatisfy({ if case .number = $0 { return true } else { return false } }) {
            let numbers = tokens.compactMap { token -> Double? in if case .number(let value) = token { value } else { nil } }
            guard (2...4).contains(numbers.count) else { return nil }
            return GeoPoint(
                latitude: numbers[0], longitude: numbers[1],
                altitude: numbers.count > 2 ? numbers[2] : 0, accuracy: numbers.count > 3 ? numbers[3] : 0
            )
        }
        return sexagesimalPoint(tokens)
    }

    private enum Token: Equatable {
        case number(Double)
        case degrees, minutes, seconds
        case hemisphere(Character)
    }

    /// The tokens of a typed point; commas only separate.
    private static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var number = ""
        func endNumber() {
            if !number.isEmpty, let value = Double(number) { tokens.append(.number(value)) }
            number = ""
        }
        for character in text {
            switch character {
            case "0"..."9", ".", "-", "+":
                if (character == "-" || character == "+") && !number.isEmpty { endNumber() }
                number.append(character)
            case "°", "º", "d", "D":
                endNumber()
                tokens.append(.degrees)
            case "'", "′", "’", "m", "M":
                endNumber()
                tokens.append(.minutes)
            case "\"", "″", "”", "s":
                endNumber()
                tokens.append(.seconds)
            case "N", "n", "S", "E", "e", "W", "w", "O":
                endNumber()
                // "O" is east in several languages (Ost, Oeste is west: not
                // taken, W is written there too).
                let letter = Character(character.uppercased())
                tokens.append(.hemisphere(letter == "O" ? "E" : letter))
            default:
                endNumber()
            }
        }
        endNumber()
        return tokens
    }

    /// A latitude and a longitude in degrees (and minutes and seconds), each
    /// with its hemisphere before or after it, or a sign.
    private static func sexagesimalPoint(_ tokens: [Token]) -> GeoPoint? {
        var angles: [(value: Double, hemisphere: Character?)] = []
        var index = 0
        while index < tokens.count {
            var hemisphere: Character?
            if case .hemisphere(let letter) = tokens[index] {
                hemisphere = letter
                index += 1
            }
            // Degrees, then minutes and seconds, each a number and its mark;
            // a bare number is degrees.
            var parts: [Double] = []
            var units: [Token] = []
            while index < tokens.count, case .number(let value) = tokens[index] {
                parts.append(value)
                index += 1
                if index < tokens.count, [.degrees, .minutes, .seconds].contains(tokens[index]) {
                    units.append(tokens[index])
                    index += 1
                } else {
                    units.append([.degrees, .minutes, .seconds][min(units.count, 2)])
                }
                if units.last == .seconds { break }
            }
            guard !parts.isEmpty, units == Array([Token.degrees, .minutes, .seconds].prefix(parts.count)) else { return nil }
            if parts.count > 1 {
                // Minutes and seconds are below 60, and only degrees carry a sign.
                guard parts.dropFirst().allSatisfy({ (0..<60).contains($0) }) else { return nil }
            }
            let sign: Double = parts[0] < 0 ? -1 : 1
            var value = abs(parts[0])
            if parts.count > 1 { value += parts[1] / 60 }
            if parts.count > 2 { value += parts[2] / 3600 }
            value *= sign
            if hemisphere == nil, index < tokens.count, case .hemisphere(let letter) = tokens[index] {
                hemisphere = letter
                index += 1
            }
            angles.append((value, hemisphere))
        }
        guard angles.count == 2 else { return nil }
        var latitude: Double?, longitude: Double?
        for (position, angle) in angles.enumerated() {
            switch angle.hemisphere {
            case "N"?: latitude = latitude == nil ? abs(angle.value) : nil
            case "S"?: latitude = latitude == nil ? -abs(angle.value) : nil
            case "E"?: longitude = longitude == nil ? abs(angle.value) : nil
            case "W"?: longitude = longitude == nil ? -abs(angle.value) : nil
            default:
                if position == 0, latitude == nil { latitude = angle.value } else if longitude == nil { longitude = angle.value }
            }
        }
        guard let latitude, let longitude else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude, altitude: 0, accuracy: 0)
    }
}

/// Why text is no geopoint, geotrace or geoshape answer, in words a
/// person collecting can act on.
public enum GeoAnswerError: Error, Equatable, Sendable {
    case notCoordinates(String)
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case negativeAccuracy
    case onePointOnly
    case traceNeedsTwoPoints
    case shapeNotClosed
    case shapeNeedsThreePoints

    public var message: String {
        switch self {
        case .notCoordinates(let text):
            tr("“%@” is not a coordinate. Enter a latitude and a longitude, such as 48.8584, 2.2945 or 48°51'30\"N 2°17'40\"E.", text)
        case .latitudeOutOfRange(let value):
            tr("The latitude %@ is outside -90 to 90.", String(value))
        case .longitudeOutOfRange(let value):
            tr("The longitude %@ is outside -180 to 180.", String(value))
        case .negativeAccuracy:
            tr("The accuracy cannot be negative.")
        case .onePointOnly:
            tr("Enter one point only.")
        case .traceNeedsTwoPoints:
            tr("A line needs at least two points, one per line.")
        case .shapeNotClosed:
            tr("A shape must end on its first point.")
        case .shapeNeedsThreePoints:
            tr("A shape needs at least three different points, one per line.")
        }
    }
}
