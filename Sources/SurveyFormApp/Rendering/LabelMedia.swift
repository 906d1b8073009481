import FormEngine
import Foundation
import GtkAppShell
import TwoWayBinding
import TwoWayBindingGtk

/// The image, recording or video a label carries (`media::image`,
/// `media::big-image`, `media::audio`, `media::video`), in the form's
/// current language, from the form's media folder. An image is shown (read
/// off the main thread once its question is first drawn); a recording or video is played by the desktop's
/// application for it. A file missing from the folder is said at the question.
@MainActor
enum LabelMedia {
    /// The widgets for `media`, or nil when the label carries none;
    /// `label` (the words of the label) names the picture for a screen reader.
    static func make(_ media: [MediaKind: TranslatedText], label: Derived<String>, context: ControlContext) -> Widget? {
        guard !media.isEmpty else { return nil }
        let box = Box(vertical: true, spacing: 6)
        let generation = Generation()
        let fill = { [weak box] in
            guard let box else { return }
            box.removeAll()
            generation.value += 1
            let language = context.language.value
            // Collect shows the image, and the big image on request; a desktop has room for the big one.
            if let name = (media[.bigImage] ?? media[.image])?.text(in: language) {
                show(image: name, label: label.value, in: box, media: context.media, fitting: (480, 360)) { generation.value }
            }
            for (kind, title) in [(MediaKind.audio, tr("Play Recording")), (.video, tr("Play Video"))] {
                guard let name = media[kind]?.text(in: language) else { continue }
                guard let url = context.media.url(named: name) else {
                    box.append(missing(String(format: tr("The file “%@” is missing from the form’s media folder."), name)))
                    continue
                }
                let play = Button(label: title)
                play.horizontalAlignment = .start
                play.onClicked { [weak play] in
                    if let play { DefaultApplication.open(url, from: play) }
                }
                .store(in: context.bag)
                box.append(play)
            }
        }
        fill()
        context.language.observeChange { fill() }.store(in: context.bag)
        return box
    }

    /// A choice's image (`media::image` in the choices sheet) in the
    /// current language, smaller than a question's; nil when it has none.
    /// A choice's buttons are rebuilt with the language, and the image with them.
    static func choiceImage(_ choice: Choice, label: String, context: ControlContext) -> Widget? {
        guard let name = (choice.media[.image] ?? choice.media[.bigImage])?.text(in: context.language.value) else { return nil }
        let box = Box(vertical: true)
        show(image: name, label: label, in: box, media: context.media, fitting: (160, 120)) { 0 }
        return box
    }

    private static func show(
        image name: String, label: String, in box: Box, media: FormMedia, fitting size: (width: Int, height: Int),
        generation: @escaping @MainActor () -> Int
    ) {
        guard let url = media.url(named: name) else {
            box.append(missing(String(format: tr("The image “%@” is missing from the form’s media folder."), name)))
            return
        }
        let picture = Picture()
        picture.horizontalAlignment = .start
        picture.setMinimumSize(height: Int32(min(size.height, 160)))
        picture.accessibleLabel = label.isEmpty ? name : label
        picture.isVisible = false
        box.append(picture)
        let asked = generation()
        // Read once the window has shown its first frame: a form of a hundred
        // pictures read at once slowed that frame on two cores.
        box.afterFirstFrame { [weak picture, weak box] in
            guard generation() == asked else { return }
            Task { @MainActor [weak picture, weak box] in
                let pixels = try? await offMainThread { try ImageFile.preview(path: url.path, fitting: size.width, size.height) }
                guard let picture, generation() == asked else { return }
                if let pixels {
                    picture.show(pixels)
                    picture.isVisible = true
                } else {
                    box?.append(missing(String(format: tr("The image “%@” cannot be shown: it is not an image this app can read."), name)))
                }
            }
        }
    }

    /// Which filling of the box is the newest: an image read for an older one is dropped.
    private final class Generation {
        var value = 0
    }

    private static func missing(_ message: String) -> Label {
        let label = Label(message)
        label.wrapsWords = true
        label.addStyleClass("error")
        label.addStyleClass("caption")
        return label
    }
}
