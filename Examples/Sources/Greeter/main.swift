import GtkAppShell
import TwoWayBinding
import TwoWayBindingGtk

/// The view model: plain observables, nothing of GTK.
@MainActor
final class Greeter {
    let name = Observable("")
    let isFormal = Observable(false)
    lazy var greeting = Derived.combine(name, isFormal) { name, isFormal in
        name.isEmpty ? "Who is there?" : isFormal ? "Good day, \(name)." : "Hi, \(name)!"
    }
}

MainActor.assumeIsolated {
    let greeter = Greeter()
    let app = Application(id: "io.github.surveyform.Greeter")
    app.onActivate {
        do {
            let ui = try Builder(string: String(decoding: PackageResources.greeter_ui, as: UTF8.self))
            try ui.object("name", as: Entry.self) <-> greeter.name
            try ui.object("formal", as: CheckButton.self) <-> greeter.isFormal
            try ui.object("greeting", as: Label.self) <- greeter.greeting
            try ui.object("window", as: Window.self).present(in: app)
        } catch {
            print("greeter: \(error)")
        }
    }
    _ = app.run()
}
