@testable import FormEngine
import XCTest

/// Coordinates typed or pasted in the notations people copy them in become
/// the answers ODK Collect stores; what is no coordinate is refused with a
/// reason.
final class GeoAnswerTests: XCTestCase {
    private func point(_ text: String) -> String? {
        try? GeoAnswer.answer(typed: text, for: .geopoint).get()
    }

    private func problem(_ text: String, _ type: QuestionType = .geopoint) -> GeoAnswerError? {
        guard case .failure(let error) = GeoAnswer.answer(typed: text, for: type) else { return nil }
        return error
    }

    func testDecimalDegrees_withACommaOrASpace_storeAllFourNumbers() {
        XCTAssertEqual(point("48.8584, 2.2945"), "48.8584 2.2945 0.0 0.0")
        XCTAssertEqual(point("48.8584 2.2945"), "48.8584 2.2945 0.0 0.0")
        XCTAssertEqual(point("-33.8568,151.2153"), "-33.8568 151.2153 0.0 0.0")
        XCTAssertEqual(point("  12.5  -7.25  "), "12.5 -7.25 0.0 0.0")
    }

    func testXFormsNotation_keepsAltitudeAndAccuracy() {
        XCTAssertEqual(point("48.8584 2.2945 35 4.5"), "48.8584 2.2945 35.0 4.5")
        XCTAssertEqual(point("48.8584 2.2945 35"), "48.8584 2.2945 35.0 0.0")
    }

    func testHemisphereLetters_beforeOrAfter_giveTheSign() {
        XCTAssertEqual(point("48.8584 N 2.2945 E"), "48.8584 2.2945 0.0 0.0")
        XCTAssertEqual(point("33.9 S, 18.4 E"), "-33.9 18.4 0.0 0.0")
        XCTAssertEqual(point("S 33.9 W 70.6"), "-33.9 -70.6 0.0 0.0")
        // The longitude first, as some tools write it, is read by its letter.
        XCTAssertEqual(point("2.5°E 48.5°N"), "48.5 2.5 0.0 0.0")
    }

    func testDegreesMinutesSeconds_andDecimalMinutes() throws {
        let dms = try XCTUnwrap(GeoAnswer.typedPoint(#"48°51'30"N 2°17'42"E"#))
        XCTAssertEqual(dms.latitude, 48 + 51.0 / 60 + 30.0 / 3600, accuracy: 1e-9)
        XCTAssertEqual(dms.longitude, 2 + 17.0 / 60 + 42.0 / 3600, accuracy: 1e-9)
        let spaced = try XCTUnwrap(GeoAnswer.typedPoint(#"33° 52' 4.5" S, 151° 12' 40" E"#))
        XCTAssertEqual(spaced.latitude, -(33 + 52.0 / 60 + 4.5 / 3600), accuracy: 1e-9)
        XCTAssertEqual(spaced.longitude, 151 + 12.0 / 60 + 40.0 / 3600, accuracy: 1e-9)
        let minutes = try XCTUnwrap(GeoAnswer.typedPoint("48°51.5' N, 2°17.7' W"))
        XCTAssertEqual(minutes.latitude, 48 + 51.5 / 60, accuracy: 1e-9)
        XCTAssertEqual(minutes.longitude, -(2 + 17.7 / 60), accuracy: 1e-9)
    }

    func testWhatIsNoCoordinate_isRefusedWithItsReason() {
        XCTAssertEqual(problem("Paris"), .notCoordinates("Paris"))
        XCTAssertEqual(problem("48.85"), .notCoordinates("48.85"))
        XCTAssertEqual(problem("91, 2"), .latitudeOutOfRange(91))
        XCTAssertEqual(problem("45, -181"), .longitudeOutOfRange(-181))
        XCTAssertEqual(problem("45 2 10 -1"), .negativeAccuracy)
        XCTAssertEqual(problem("48°61'N 2°E"), .notCoordinates("48°61'N 2°E"), "minutes are below 60")
        XCTAssertEqual(problem("48 N 2 N"), .notCoordinates("48 N 2 N"), "two latitudes")
        XCTAssertEqual(problem("1, 2\n3, 4"), .onePointOnly)
        XCTAssertEqual(try GeoAnswer.answer(typed: "   ", for: .geopoint).get(), "")
        XCTAssertTrue(problem("Paris")?.message.contains("Paris") == true)
    }

    func testATrace_takesAPointPerLineOrSemicolon_andNeedsTwo() {
        XCTAssertEqual(
            try GeoAnswer.answer(typed: "1, 2\n3, 4\n\n5 6", for: .geotrace).get(),
            "1.0 2.0 0.0 0.0;3.0 4.0 0.0 0.0;5.0 6.0 0.0 0.0"
        )
        XCTAssertEqual(try GeoAnswer.answer(typed: "1 2;3 4", for: .geotrace).get(), "1.0 2.0 0.0 0.0;3.0 4.0 0.0 0.0")
        XCTAssertEqual(problem("1, 2", .geotrace), .traceNeedsTwoPoints)
    }

    func testAShape_isClosedOnItsFirstPoint_andNeedsThreeCorners() {
        XCTAssertEqual(
            try GeoAnswer.answer(typed: "0 0\n0 1\n1 1", for: .geoshape).get(),
            "0.0 0.0 0.0 0.0;0.0 1.0 0.0 0.0;1.0 1.0 0.0 0.0;0.0 0.0 0.0 0.0"
        )
        XCTAssertEqual(
            try GeoAnswer.answer(typed: "0 0\n0 1\n1 1\n0 0", for: .geoshape).get(),
            "0.0 0.0 0.0 0.0;0.0 1.0 0.0 0.0;1.0 1.0 0.0 0.0;0.0 0.0 0.0 0.0", "closed already: not closed twice"
        )
        XCTAssertEqual(problem("0 0\n0 1", .geoshape), .shapeNeedsThreePoints)
        XCTAssertEqual(problem("0 0\n0 1\n0 1", .geoshape), .shapeNeedsThreePoints)
    }

    @MainActor func testStoredAnswers_areCheckedAsTheyAreStored() {
        XCTAssertNil(FormMessages.typeProblem("48.8584 2.2945 35.0 4.5", for: .geopoint))
        XCTAssertNil(FormMessages.typeProblem("0 0 0 0;0 1 0 0;1 1 0 0;0 0 0 0", for: .geoshape))
        XCTAssertEqual(
            FormMessages.typeProblem("0 0 0 0;0 1 0 0;1 1 0 0", for: .geoshape), GeoAnswerError.shapeNotClosed.message,
            "a stored shape that is not closed is no shape"
        )
        XCTAssertEqual(FormMessages.typeProblem("100 0", for: .geopoint), GeoAnswerError.latitudeOutOfRange(100).message)
        XCTAssertNotNil(FormMessages.typeProblem("48.8 2.2 x", for: .geopoint))
    }

    func testDescriptions_readAsDegreesLengthsAndAreas() throws {
        XCTAssertEqual(GeoAnswer.description(of: "48.8584 -2.2945 0 0", for: .geopoint), "48.858400° N, 2.294500° W")
        XCTAssertEqual(GeoAnswer.description(of: "-1 2 0 5", for: .geopoint), "1.000000° S, 2.000000° E (within 5 m)")
        // One degree of latitude on ODK's sphere is about 111.3 km.
        XCTAssertEqual(GeoAnswer.description(of: "0 0 0 0;1 0 0 0", for: .geotrace), "2 points, 111.32 km long")
        let shape = try XCTUnwrap(GeoAnswer.description(of: "0 0;0 0.001;0.001 0.001;0.001 0;0 0", for: .geoshape))
        XCTAssertTrue(shape.hasPrefix("4 corners, 1.2"), shape)
        XCTAssertTrue(shape.hasSuffix(" ha"), shape)
        let german = NumberSeparators(decimal: ",", grouping: ".")
        XCTAssertEqual(GeoAnswer.description(of: "-1 2 0 5", for: .geopoint, separators: german), "1,000000° S, 2,000000° E (within 5 m)")
        XCTAssertEqual(GeoAnswer.description(of: "0 0 0 0;1 0 0 0", for: .geotrace, separators: german), "2 points, 111,32 km long")
        XCTAssertNil(GeoAnswer.description(of: "", for: .geopoint))
        XCTAssertNil(GeoAnswer.description(of: "nonsense", for: .geopoint))
    }
}
