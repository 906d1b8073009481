import Foundation

/// A point of an ODK geopoint, geotrace or geoshape, as XForms writes it:
/// `lat lon [alt [accuracy]]`, degrees and metres.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above the ellipsoid; 0 when not known, as Collect writes it.
    public var altitude: Double
    /// Metres; 0 when not known (a point placed by hand).
    public var accuracy: Double

    /// The mean radius ODK's geo functions use, in metres.
    static let earthRadius = 6_378_100.0

    public init(latitude: Double, longitude: Double, altitude: Double = 0, accuracy: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
    }

    /// A point in XForms' notation: two to four numbers between spaces.
    public init?(_ text: String) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard (2...4).contains(fields.count) else { return nil }
        let numbers = fields.compactMap { Double($0) }.filter(\.isFinite)
        guard numbers.count == fields.count else { return nil }
        self.init(
            latitude: numbers[0], longitude: numbers[1],
            altitude: numbers.count > 2 ? numbers[2] : 0, accuracy: numbers.count > 3 ? numbers[3] : 0
        )
    }

    /// The point as XForms stores it, all four numbers: `48.8584 2.2945 0.0 0.0`.
    public var xformsText: String {
        [latitude, longitude, altitude, accuracy].map { String($0) }.joined(separator: " ")
    }

    /// The length of the path through `points`, in metres (haversine between neighbours).
    static func distance(along points: [GeoPoint]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { total, pair in
            let (a, b) = pair
            let latitudeA = a.latitude * .pi / 180, latitudeB = b.latitude * .pi / 180
            let deltaLatitude = latitudeB - latitudeA
            let deltaLongitude = (b.longitude - a.longitude) * .pi / 180
            let h = sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
                + cos(latitudeA) * cos(latitudeB) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
            return total + 2 * earthRadius * asin(min(1, h.squareRoot()))
        }
    }

    /// Whether the point is inside the shape through `shape` (its last point
    /// its first again, as a geoshape is written), by crossings of a ray
    /// along its latitude, as JavaRosa's `geofence()` decides it.
    func isInside(_ shape: [GeoPoint]) -> Bool {
        var inside = false
        for (a, b) in zip(shape, shape.dropFirst()) where (b.latitude > latitude) != (a.latitude > latitude) {
            let crossing = (a.longitude - b.longitude) * (latitude - b.latitude) / (a.latitude - b.latitude) + b.longitude
            if longitude < crossing { inside.toggle() }
        }
        return inside
    }

    /// The area of the polygon through `points` on the sphere, in square metres.
    static func area(of points: [GeoPoint]) -> Double {
        guard points.count >= 3 else { return 0 }
        var sum = 0.0
        for (index, a) in points.enumerated() {
            let b = points[(index + 1) % points.count]
            let deltaLongitude = (b.longitude - a.longitude) * .pi / 180
            sum += deltaLongitude * (2 + sin(a.latitude * .pi / 180) + sin(b.latitude * .pi / 180))
        }
        return abs(sum * earthRadius * earthRadius / 2)
    }
}
