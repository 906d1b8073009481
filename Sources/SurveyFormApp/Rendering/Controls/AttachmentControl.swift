import FormEngine
import Foundation
import GtkAppShell
import SurveyStorage
import TwoWayBinding
import TwoWayBindingGtk

/// An image, audio, video or file question (and background-audio's file):
/// a file chosen through the desktop's file chooser (the portal's in a
/// sandbox) or dropped onto the question, checked against the form's
/// `body::accept` and read as what it claims to be, a photo scaled down to
/// `max-pixels` as ODK Collect scales it, then copied into the response's
/// own folder. The answer is the stored file's name; Remove clears it, and
/// the form's Undo brings it back. A file refused is said beside the
/// question and changes nothing: the answer stays as it was, and valid.
@MainActor
enum AttachmentControl: QuestionControlKind {
    static func answers(_ question: Question) -> Bool {
        question.type.isAttachment
    }

    static func make(for state: QuestionState, context: ControlContext) -> QuestionControl? {
        let picker = AttachmentPicker(state: state, files: context.files)
        guard state.question.type == .image else { return picker.control(bag: context.bag) }
        picker.preview.isVisible = false
        picker.preview.setMinimumSize(height: 160)
        return picker.control(showing: picker.preview, bag: context.bag)
    }
}

/// The state behind one attachment question's widgets: the file being
/// taken, and the preview being read.
@MainActor
final class AttachmentPicker {
    let state: QuestionState
    let files: ResponseFiles?
    let preview = Picture()
    let nameLabel = Label()
    /// Why the last file offered was not taken; hidden when it was.
    let refusalLabel = Label()
    let chooseButton: Button
    let removeButton: Button
    /// The file being stored, when one is: the next waits for it.
    private(set) var taking: Task<Void, Never>?
    /// Which reading of the preview is the newest; older ones are dropped.
    private var previewGeneration = 0
    private var chooser: FileChooser?
    /// Whether a photo's preview is read and shown (a drawing shows its own).
    private let showsPreview: Bool

    init(state: QuestionState, files: ResponseFiles?, showsPreview: Bool = true) {
        self.state = state
        self.files = files
        self.showsPreview = showsPreview
        chooseButton = Button(label: Self.chooseLabel(for: state.question.type))
        removeButton = Button(label: tr("Remove"))
        nameLabel.addStyleClass("dim-label")
        refusalLabel.wrapsWords = true
        refusalLabel.addStyleClass("error")
        refusalLabel.isVisible = false
    }

    /// Says why a file was not taken, or (`nil`) clears it.
    func refuse(_ message: String?) {
        refusalLabel.text = message ?? ""
        refusalLabel.isVisible = message != nil
    }

    static func chooseLabel(for type: QuestionType) -> String {
        switch type {
        case .image: tr("Choose Photo…")
        case .audio, .backgroundAudio: tr("Choose Recording…")
        case .video: tr("Choose Video…")
        case .osm: tr("Choose Map Data…")
        default: tr("Choose File…")
        }
    }

    /// The control: `above` (a preview, a canvas), then the file's name with
    /// Choose and Remove, then why a file was refused. Focus, and the
    /// question's label, go to Choose.
    func control(showing above: Widget? = nil, bag: ObservationToken.Bag) -> QuestionControl {
        let box = Box(vertical: true, spacing: 6)
        if let above { box.append(above) }
        let line = Box(vertical: false, spacing: 6)
        nameLabel.expandsHorizontally = true
        nameLabel.ellipsizesLines = true
        line.append(nameLabel)
        line.append(chooseButton)
        line.append(removeButton)
        box.append(line)
        box.append(refusalLabel)
        start(in: box, bag: bag)
        var control = QuestionControl(shown: box, focusable: chooseButton, validated: chooseButton, labelled: [chooseButton])
        control.showsReadout = true
        return control
    }

    private func start(in box: Box, bag: ObservationToken.Bag) {
        // Lives as long as its widgets: nothing else holds it.
        ObservationToken { [self] in _ = self }.keep(with: box)
        chooseButton.onClicked { [weak self] in self?.choose() }.store(in: bag)
        removeButton.onClicked { [weak self] in self?.remove() }.store(in: bag)
        box.onFilesDropped { [weak self] paths in
            guard let self, let path = paths.first, !state.isReadOnly.value else { return }
            take(path)
        }
        .store(in: bag)
        state.value.observe(sendInitial: true) { [weak self] _ in self?.show() }.store(in: bag)
        state.isReadOnly.observe(sendInitial: true) { [weak self] readOnly in
            self?.chooseButton.isSensitive = !readOnly
            self?.show()
        }?.store(in: bag)
        chooseButton.accessibleLabel = state.question.type == .backgroundAudio ? tr("Background recording") : nil
    }

    /// Shows the answer: the stored file's name and size, its preview.
    private func show() {
        let name = state.value.value
        removeButton.isSensitive = !name.isEmpty && !state.isReadOnly.value
        guard !name.isEmpty else {
            nameLabel.text = tr("No file chosen")
            preview.isVisible = false
            preview.show(nil)
            return
        }
        guard let url = files?.url(of: name), let size = Self.fileSize(url) else {
            nameLabel.text = String(format: tr("%@ (missing)"), name)
            preview.isVisible = false
            preview.show(nil)
            return
        }
        nameLabel.text = "\(name) (\(ByteCountFormatter.string(fromByteCount: size, countStyle: .file)))"
        guard showsPreview, state.question.type == .image else { return }
        previewGeneration += 1
        let generation = previewGeneration
        Task { [weak self] in
            let pixels = try? await offMainThread { try ImageFile.preview(path: url.path, fitting: 480, 320) }
            guard let self, generation == previewGeneration else { return }
            preview.show(pixels)
            preview.isVisible = pixels != nil
        }
    }

    private static func fileSize(_ url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              (attributes[.type] as? FileAttributeType) == .typeRegular else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }

    private func choose() {
        let chooser = FileChooser(
            title: Self.chooseLabel(for: state.question.type).replacingOccurrences(of: "…", with: ""),
            purpose: .open, acceptLabel: tr("_Choose"), cancelLabel: tr("_Cancel"), over: chooseButton.enclosingWindow
        )
        let accepted = state.question.acceptedFiles
        if !accepted.isEmpty {
            chooser.addFilter(
                tr("Files this question takes"),
                patterns: accepted.filter { $0.hasPrefix(".") }.map { "*" + $0 },
                mimeTypes: accepted.filter { !$0.hasPrefix(".") }
            )
            chooser.addFilter(tr("All files"), patterns: ["*"])
        }
        self.chooser = chooser
        chooser.show { [weak self] choice in
            guard let self else { return }
            self.chooser = nil
            switch choice {
            case .path(let path): take(path)
            case .notLocal: refuse(tr("Choose a file on this computer."))
            case .cancelled: break
            }
        }
    }

    /// Answers with the file at `path`: checked, scaled, stored off the main
    /// thread; a refusal says why at the question and keeps the answer.
    func take(_ path: String) {
        let question = state.question
        store { store, instanceID in try Self.store(path, for: question, in: store, instanceID: instanceID) }
    }

    /// Answers with a PNG made here (a drawing), stored off the main thread;
    /// `named` hears its name just before it becomes the answer.
    func take(png: Data, named: @escaping @MainActor (String) -> Void) {
        store(named: named) { store, instanceID in try store.add(png, fileExtension: "png", instanceID: instanceID) }
    }

    /// Runs `work` off the main thread, after the file before it, and
    /// answers with the name it returns, or says why it failed.
    private func store(
        named: (@MainActor (String) -> Void)? = nil, _ work: @escaping @Sendable (AttachmentStore, String) throws -> String
    ) {
        guard let files else {
            refuse(tr("Files cannot be kept here: there is no data folder."))
            return
        }
        let store = files.store
        let instanceID = files.instanceID
        let previous = taking
        taking = Task { [weak self] in
            await previous?.value
            await files.ready()
            let outcome: Result<String, AttachmentRefusal>
            do {
                outcome = .success(try await offMainThread { try work(store, instanceID) })
            } catch let refusal as AttachmentRefusal {
                outcome = .failure(refusal)
            } catch {
                outcome = .failure(AttachmentRefusal(message: error.localizedDescription))
            }
            // A response submitted or replaced meanwhile keeps its own answers.
            guard let self, files.instanceID == instanceID else { return }
            switch outcome {
            case .success(let name):
                refuse(nil)
                named?(name)
                state.value.value = name
            case .failure(let refusal):
                refuse(refusal.message)
            }
        }
    }

    private func remove() {
        refuse(nil)
        state.value.value = ""
    }

    /// Checks the file at `path` against `question` and stores it (scaled
    /// down, for a photo larger than the form allows); returns its name.
    nonisolated static func store(
        _ path: String, for question: Question, in store: AttachmentStore, instanceID: String
    ) throws -> String {
        let fileName = (path as NSString).lastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
              FileManager.default.isReadableFile(atPath: path) else {
            throw AttachmentRefusal(message: String(format: tr("%@ cannot be read: it is missing or not a file."), fileName))
        }
        let mediaType = ImageFile.mediaType(ofFile: path)
        guard question.accepts(fileName: fileName, mediaType: mediaType) else {
            throw AttachmentRefusal(message: String(
                format: tr("%@ is %@, which this question does not take (it takes %@)."),
                fileName, mediaType, question.acceptedFiles.joined(separator: ", ")
            ))
        }
        let fileExtension = (fileName as NSString).pathExtension
        guard question.type == .image else {
            return try store.add(copying: URL(fileURLWithPath: path), fileExtension: fileExtension, instanceID: instanceID)
        }
        do {
            // Decoded enough to know it is an image, whatever its name says.
            _ = try ImageFile.size(ofFile: path)
            if let longest = question.maxPixels, let scaled = try ImageFile.scaledDown(path: path, longestSide: longest) {
                return try store.add(scaled.data, fileExtension: scaled.fileExtension, instanceID: instanceID)
            }
        } catch let failure as ImageFile.Failure {
            throw AttachmentRefusal(message: describe(failure, fileName: fileName))
        }
        return try store.add(copying: URL(fileURLWithPath: path), fileExtension: fileExtension, instanceID: instanceID)
    }

    nonisolated static func describe(_ failure: ImageFile.Failure, fileName: String) -> String {
        switch failure {
        case .unreadable(let reason):
            let base = String(format: tr("%@ is not an image this computer can read."), fileName)
            return reason.isEmpty ? base : base + " " + reason
        case .tooLarge(let width, let height):
            return String(format: tr("%@ is too large an image to read (%d × %d pixels)."), fileName, width, height)
        case .notEncoded(let reason):
            return String(format: tr("The photo could not be scaled down: %@"), reason)
        }
    }
}

/// Why a file was not taken, as the question shows it.
struct AttachmentRefusal: Error {
    let message: String
}
