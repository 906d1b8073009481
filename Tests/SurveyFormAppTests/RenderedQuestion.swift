import CTwoWayBindingGtkShims
import FormEngine
import Foundation
import GtkTestSupport
import SurveyStorage
@testable import SurveyFormApp
import TwoWayBinding
import TwoWayBindingGtk
import XCTest

/// One question of a form written inline in pyxform's Markdown layout,
/// rendered as the form window renders it (its card, from the registry's
/// control) in a window of its own.
@MainActor
final class RenderedQuestion {
    let viewModel: FormViewModel
    let state: QuestionState
    let card: Widget
    let control: QuestionControl
    /// How often the control asked to move on to the next question.
    private(set) var advances = 0
    private let bag = ObservationToken.Bag()
    private let window: UnsafeMutablePointer<GtkWidget>

    /// `survey` is the survey sheet's rows, header first; `choices` the
    /// choices sheet's, if any.
    init(
        _ name: String, survey: String, choices: String? = nil, files: ResponseFiles? = nil, media: FormMedia = .none,
        numberSeparators: NumberSeparators = .posix
    ) throws {
        var markdown = "| survey |\n" + survey
        if let choices { markdown += "\n| choices |\n" + choices }
        let definition = try FormDefinition(data: Data(markdown.utf8), fileName: "form.md")
        viewModel = try FormViewModel(definition: definition, media: media)
        state = try XCTUnwrap(viewModel.states.first { $0.question.name == name })
        var advanced: @MainActor () -> Void = {}
        let context = ControlContext(
            bag: bag, language: viewModel.language, advanceFocus: { advanced() }, files: files, media: media,
            numberSeparators: numberSeparators
        )
        let made = try XCTUnwrap(QuestionCard.make(for: state, context: context))
        card = made.card
        control = try XCTUnwrap(made.control, "the question has a control")
        window = GtkTest.window(try XCTUnwrap(card.pointer))
        advanced = { [unowned self] in advances += 1 }
    }

    /// The first widget of `type` in the card, depth first.
    func widget<W: Widget>(_ type: W.Type) throws -> W {
        try XCTUnwrap(all(type).first, "no \(type) in the card")
    }

    /// Every widget of `type` in the card, depth first.
    func all<W: Widget>(_ type: W.Type) -> [W] {
        var found: [W] = []
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if W.canWrap(widget), let match = try? W.wrapping(widget) { found.append(match) }
            var child = gtk_widget_get_first_child(widget)
            while let next = child {
                visit(next)
                child = gtk_widget_get_next_sibling(next)
            }
        }
        if let pointer = card.pointer { visit(pointer) }
        return found
    }

    /// Shows the card's window, so that it is laid out (sizes, pointer coordinates).
    func present() {
        GtkTest.activate(window)
    }

    func close() {
        bag.cancelAll()
        GtkTest.destroy(window)
    }
}

extension RenderedQuestion {
    /// The question `name` rendered with its response's files kept under
    /// `folder`, the response being the form's current one; files are taken
    /// off the main thread, so the main queue is bridged into GLib's loop.
    static func withFiles(_ name: String, survey: String, in folder: URL) throws -> (RenderedQuestion, ResponseFiles) {
        MainLoopBridge.install()
        let store = AttachmentStore(directory: folder.appendingPathComponent("data"))
        var viewModel: FormViewModel?
        let files = ResponseFiles(store: store, instanceID: { viewModel?.instanceID ?? "" })
        let rendered = try RenderedQuestion(name, survey: survey, files: files)
        viewModel = rendered.viewModel
        return (rendered, files)
    }
}
