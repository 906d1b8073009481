import Foundation

/// A point of an ODK geopoint, geotrace or geoshape (`lat lon [alt [accuracy]]`).
struct GeoPoint {
    var latitude: Double
    var longitude: Double

    /// The mean radius ODK's geo functions use, in metres.
    static let earthRadius = 6_378_100.0

    init?(_ text: String) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, let latitude = Double(fields[0]), let longitude = Double(fields[1]) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
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
