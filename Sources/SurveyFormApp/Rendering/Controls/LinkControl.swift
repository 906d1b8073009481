import FormEngine
import Foundation
import GtkAppShell
import TwoWayBinding
import TwoWayBindingGtk

/// A text question with the `url` appearance, as Collect shows it: the
/// answer (usually a calculation or a default) is a web address, shown
/// with a button that opens it in the desktop's browser. Only http and
/// https addresses open; anything else is shown, not followed.
@MainActor
enum LinkControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type == .text && question.hasAppearance("url")
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let address = Label()
        address.ellipsizesLines = true
        address.expandsHorizontally = true
        address.show(state.value) { $0.isEmpty ? tr("No link") : $0 }
        let open = Button(label: tr("Open Link"))
        state.value.observe(sendInitial: true) { [weak open] in open?.isSensitive = webAddress($0) != nil }.store(in: context.bag)
        open.onClicked { [weak open, value = state.value] in
            guard let open, let url = webAddress(value.value) else { return }
            DefaultApplication.open(url, from: open)
        }
        .store(in: context.bag)
        let line = Box(vertical: false, spacing: 12)
        line.append(address)
        line.append(open)
        // The line is named by the question; the address and the button keep their words.
        return QuestionControl(shown: line, focusable: open, validated: line, labelled: [line])
    }

    /// `text` as an http or https address, or nil.
    nonisolated static func webAddress(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else { return nil }
        return url
    }
}
