import CTwoWayBindingGtkShims
import Foundation
import TwoWayBinding
import TwoWayBindingGtk
import GtkTestSupport
import XCTest

/// A view model that outlives its windows, as the application's does when a
/// window is closed and another opened.
final class LongLivedModelTests: GtkTestCase {
    func testModelOutlivesThousandDestroyedWindows_keepsWorking_andHoldsNoObservers() throws {
        try MainActor.assumeIsolated {
            let viewModel = SampleSurveyModel()
            let baseline = (Widget._liveCount, Widget._boundCount, Signal._liveClosureBoxCount)
            let observerBaseline = Self.observerCounts(of: viewModel)

            for cycle in 0..<1_000 {
                let window = try SurveyWindowStandIn(viewModel: viewModel)
                // The window works while it lives: both ways.
                if cycle % 100 == 0 { XCTAssertTrue(GtkTest.present(window.window), "cycle \(cycle)") }
                viewModel.name.value = "Respondent \(cycle)"
                XCTAssertEqual(window.nameText, "Respondent \(cycle)", "cycle \(cycle)")
                window.typeIntoName("!")
                XCTAssertEqual(viewModel.name.value, "Respondent \(cycle)!", "cycle \(cycle)")
                window.spinYears(typing: cycle % 60)
                XCTAssertEqual(viewModel.yearsOfExperience.value, Double(cycle % 60) + 0.5, "cycle \(cycle)")
                XCTAssertEqual(window.summaryText, viewModel.summary.value, "cycle \(cycle)")
                window.destroy()
                if cycle % 50 == 0 { GtkTest.pump() }
            }
            GtkTest.pump()

            XCTAssertEqual(Self.observerCounts(of: viewModel), observerBaseline, "observers left on the view model")
            XCTAssertEqual(Widget._liveCount, baseline.0, "wrappers left alive")
            XCTAssertEqual(Widget._boundCount, baseline.1, "binders left alive")
            XCTAssertEqual(Signal._liveClosureBoxCount, baseline.2, "signal closure boxes left alive")

            // Still working without a window: sets, derived values, validation, undo.
            viewModel.name.value = ""
            XCTAssertFalse(viewModel.isValid.value, "an empty name is invalid")
            viewModel.name.value = "Grace"
            viewModel.yearsOfExperience.value = 12.5
            viewModel.approxSalary.value = 85_000
            XCTAssertTrue(viewModel.isValid.value)
            XCTAssertTrue(viewModel.summary.value.contains("Grace"), viewModel.summary.value)
            XCTAssertEqual(viewModel.experienceText.value, "12.5 yrs")
            viewModel.history.undo()
            XCTAssertNil(viewModel.approxSalary.value, "undo still works")
            viewModel.history.redo()
            XCTAssertEqual(viewModel.approxSalary.value, 85_000)

            // And a new window binds to it as the first did.
            let window = try SurveyWindowStandIn(viewModel: viewModel)
            XCTAssertEqual(window.nameText, "Grace")
            window.typeIntoName("!")
            XCTAssertEqual(viewModel.name.value, "Grace!")
            window.destroy()
            GtkTest.pump()
            XCTAssertEqual(Self.observerCounts(of: viewModel), observerBaseline)
        }
    }

    @MainActor
    private static func observerCounts(of viewModel: SampleSurveyModel) -> [String: Int] {
        var counts = [
            "name": viewModel.name._observerCount, "companyName": viewModel.companyName._observerCount,
            "yearsOfExperience": viewModel.yearsOfExperience._observerCount,
            "isCurrentEmployer": viewModel.isCurrentEmployer._observerCount,
            "approxSalary": viewModel.approxSalary._observerCount, "comments": viewModel.comments._observerCount,
            "experienceText": viewModel.experienceText._observerCount, "salaryText": viewModel.salaryText._observerCount,
            "summary": viewModel.summary._observerCount, "isValid": viewModel.isValid._observerCount,
        ]
        for field in SampleSurveyModel.Question.allCases {
            counts["inputErrors.\(field)"] = viewModel.inputErrors[field]!._observerCount
            counts["validation.\(field)"] = viewModel.validation(for: field)._observerCount
        }
        return counts
    }
}

/// A survey window's widgets and bindings, without the application around
/// them: the text widgets' own undo off (the model's history undoes), the
/// years spin button 0–60 in steps of 0.5 with one digit and numeric off, the
/// salary scale 0–500,000 in steps of 1,000.
@MainActor
private struct SurveyWindowStandIn {
    let window: UnsafeMutablePointer<GtkWidget>
    private let nameEntry: UnsafeMutablePointer<GtkWidget>
    private let yearsSpin: UnsafeMutablePointer<GtkWidget>
    private let summaryLabel: UnsafeMutablePointer<GtkWidget>

    init(viewModel: SampleSurveyModel) throws {
        nameEntry = gtk_entry_new()
        let companyEntry = gtk_entry_new()!
        gtk_editable_set_enable_undo(nameEntry.opaque, TWB_FALSE)
        gtk_editable_set_enable_undo(companyEntry.opaque, TWB_FALSE)
        let adjustment = gtk_adjustment_new(0, 0, 60, 0.5, 5, 0)
        yearsSpin = gtk_spin_button_new(adjustment, 0.5, 1)
        gtk_spin_button_set_numeric(yearsSpin.opaque, TWB_FALSE)
        let currentSwitch = gtk_switch_new()!
        let salaryScale = gtk_scale_new(GTK_ORIENTATION_HORIZONTAL, gtk_adjustment_new(0, 0, 500_000, 1_000, 10_000, 0))!
        gtk_scale_set_draw_value(salaryScale.cast(), TWB_FALSE)
        gtk_range_set_round_digits(salaryScale.cast(), 0)
        let comments = gtk_text_view_new()!
        gtk_text_buffer_set_enable_undo(gtk_text_view_get_buffer(comments.cast()), TWB_FALSE)
        let experienceLabel = gtk_label_new(nil)!, salaryLabel = gtk_label_new(nil)!, nameError = gtk_label_new(nil)!
        summaryLabel = gtk_label_new(nil)
        window = GtkTest.window([
            nameEntry, nameError, companyEntry, yearsSpin, experienceLabel, currentSwitch, salaryScale, salaryLabel,
            comments, summaryLabel,
        ])

        let errors = viewModel.inputErrors
        try Entry.wrapping(nameEntry).bind(with: viewModel.name)
        try Entry.wrapping(companyEntry).bind(with: viewModel.companyName)
        try SpinButton.wrapping(yearsSpin).bind(
            with: viewModel.yearsOfExperience, transform: .optional(.identity, placeholder: 0),
            options: BindingOptions(validation: errors[.yearsOfExperience])
        )
        try Switch.wrapping(currentSwitch).bind(with: viewModel.isCurrentEmployer)
        try Scale.wrapping(salaryScale).bind(
            with: viewModel.approxSalary, transform: .optional(.float, placeholder: 0),
            options: BindingOptions(validation: errors[.approxSalary])
        )
        try TextView.wrapping(comments).bind(with: viewModel.comments)
        try Label.wrapping(experienceLabel).show(viewModel.experienceText)
        try Label.wrapping(salaryLabel).show(viewModel.salaryText)
        try Label.wrapping(summaryLabel).show(viewModel.summary)
        try Entry.wrapping(nameEntry).showValidation(viewModel.validation(for: .name), message: try Label.wrapping(nameError))
        try SpinButton.wrapping(yearsSpin).showValidation(viewModel.validation(for: .yearsOfExperience))
    }

    var nameText: String { String(cString: gtk_editable_get_text(nameEntry.opaque)) }
    var summaryText: String { String(cString: gtk_label_get_text(summaryLabel.opaque)) }

    func typeIntoName(_ text: String) {
        var position = gint(-1)
        gtk_editable_set_position(nameEntry.opaque, -1)
        position = gtk_editable_get_position(nameEntry.opaque)
        gtk_editable_insert_text(nameEntry.opaque, text, -1, &position)
    }

    /// Types `years`, then the up arrow.
    func spinYears(typing years: Int) {
        gtk_editable_set_text(yearsSpin.opaque, "\(years)")
        gtk_spin_button_update(yearsSpin.opaque)
        gtk_spin_button_spin(yearsSpin.opaque, GTK_SPIN_STEP_FORWARD, 0)
    }

    func destroy() {
        gtk_window_destroy(window.cast())
    }
}
