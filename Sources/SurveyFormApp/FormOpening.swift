import Foundation

/// A form file being read and planned off the main thread, so that the
/// window keeps drawing and answering meanwhile. One reading that takes
/// long gets a progress indication (`onSlow`, which the caller shows as it
/// suits: a dialog over the window, or a window of its own at start); a
/// cancelled one is dropped at once, and stops at its next step.
@MainActor
final class FormOpening {
    /// What became of the reading.
    enum Outcome {
        case opened(FormFile)
        case refused(FormFileError)
        case cancelled
    }

    /// How long a reading may take before the window says it is reading: a
    /// form that opens at once shows no flash of a spinner.
    static let progressDelay: Duration = .milliseconds(300)

    /// The file being read.
    let path: String
    private var reading: Task<Void, Never>?
    private var progress: Task<Void, Never>?
    private var completion: ((Outcome) -> Void)?

    /// Starts reading `path`; `completion` gets the outcome once, on the main
    /// thread, and `onSlow` is called if it has not come after `progressDelay`.
    init(path: String, onSlow: @escaping @MainActor () -> Void, completion: @escaping @MainActor (Outcome) -> Void) {
        self.path = path
        self.completion = completion
        progress = Task { [weak self] in
            guard (try? await Task.sleep(for: Self.progressDelay)) != nil, self?.completion != nil else { return }
            onSlow()
        }
        reading = Task { [weak self] in
            let result = await FormFile.read(path: path)
            guard let self, let result else { return }
            switch result {
            case .success(let form): finish(.opened(form))
            case .failure(let error): finish(.refused(error))
            }
        }
    }

    /// Whether the outcome is still to come.
    var isPending: Bool { completion != nil }

    /// Gives up the reading: the outcome is `.cancelled`, now.
    func cancel() {
        reading?.cancel()
        finish(.cancelled)
    }

    private func finish(_ outcome: Outcome) {
        guard let completion else { return }
        self.completion = nil
        progress?.cancel()
        completion(outcome)
    }
}
