import CTwoWayBindingGtkShims
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

final class ScaleTests: GtkTestCase {
    @MainActor
    private static func makeScale(_ lower: Double, _ upper: Double) -> UnsafeMutablePointer<GtkWidget> {
        gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, lower, upper, 1)
    }

    func testModelOutOfRange_isClampedAndReconciledOnce() throws {
        try MainActor.assumeIsolated {
            let gtkScale = Self.makeScale(0, 50)
            let window = GtkTest.window(gtkScale)
            defer { GtkTest.destroy(window) }
            let salary = Observable(80.0)
            let (token, notifications) = salary.countNotifications()
            defer { token.cancel() }

            let binding = try Scale.wrapping(gtkScale).bind(with: salary)
            XCTAssertEqual(gtk_range_get_value(gtkScale.cast()), 50)
            XCTAssertEqual(salary.value, 50, "the model takes the clamped value")
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(binding._controlWriteCount, 1)
        }
    }

    func testFloatModel_bothWays_andRangeNarrowing() throws {
        try MainActor.assumeIsolated {
            let gtkScale = Self.makeScale(0, 200)
            let window = GtkTest.window(gtkScale)
            defer { GtkTest.destroy(window) }
            let scale = try Scale.wrapping(gtkScale)
            let salary = Observable<Float>(85)
            let binding = scale.bind(with: salary, transform: .float)
            XCTAssertEqual(scale.value, 85)
            let (token, notifications) = salary.countNotifications()
            defer { token.cancel() }
            let (valueHandler, valueChanges) = GtkTest.count("value-changed", of: gtkScale)
            defer { valueHandler.cancel() }

            gtk_range_set_value(gtkScale.cast(), 120)  // as a drag step would
            XCTAssertEqual(salary.value, 120)
            XCTAssertEqual(notifications.value, 1)
            XCTAssertEqual(valueChanges(), 1, "no write back to the scale")

            scale.setRange(0...100)
            XCTAssertEqual(scale.value, 100)
            XCTAssertEqual(salary.value, 100, "narrowing the range moves the model along")
            XCTAssertEqual(notifications.value, 2)

            salary.value = 42.5
            XCTAssertEqual(scale.value, 42.5)
            XCTAssertEqual(binding._controlWriteCount, 2)
        }
    }
}
