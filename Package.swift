// swift-tools-version:6.0
import PackageDescription

// Offline builds (the Flatpak, Flathub's builder) bring every package of the
// graph in as a source tree, and build-aux/swiftpm-mirrors points these URLs,
// and their dependencies', at those trees: no network is needed then.
let package = Package(
    name: "SurveyForm",
    products: [
        .library(name: "TwoWayBinding", targets: ["TwoWayBinding"]),
        .library(name: "TwoWayBindingGtk", targets: ["TwoWayBindingGtk"]),
        .library(name: "TwoWayBindingAdw", targets: ["TwoWayBindingAdw"]),
        .library(name: "GtkAppShell", targets: ["GtkAppShell"]),
        .library(name: "FormEngine", targets: ["FormEngine"]),
        .executable(name: "survey-form", targets: ["SurveyForm"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already in the graph through postgres-nio: digest()'s hashes.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // OpenRosa servers: HTTP/1.1 and 2, TLS, redirects and timeouts on
        // the SwiftNIO postgres-nio already brings.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // multipart/form-data bodies for OpenRosa submissions.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
    ],
    targets: [
        // The binding core: observables, derived values, transactions, the
        // binding engine, undo and the event bus. Knows nothing of GTK.
        .target(name: "TwoWayBinding"),
        // GTK 4 through pkg-config, with a shim header for what Swift cannot
        // import (cast macros, variadic setters, gettext).
        .systemLibrary(
            name: "CTwoWayBindingGtkShims",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // libadwaita 1.2 for TwoWayBindingAdw (dialogs, toasts, rows), named
        // after the library so that it can sit beside other Swift GTK packages.
        .systemLibrary(
            name: "CTwoWayBindingAdw",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev"])]
        ),
        // Native GTK widgets as `Bindable` controls: signals, the qdata binder
        // registry, the GLib main loop bridge.
        // A GListModel in C (GObject types are not written in Swift): the list
        // that GtkListView reads an ObservableList through.
        .target(name: "CTwoWayBindingGtk", dependencies: ["CTwoWayBindingGtkShims"]),
        .target(name: "TwoWayBindingGtk", dependencies: ["TwoWayBinding", "CTwoWayBindingGtkShims", "CTwoWayBindingGtk"]),
        // The application around the widgets: GtkApplication and its command
        // line, actions, file choosers, GSettings, the GResource bundle. An
        // app adopting the binding needs none of it to bind a widget.
        .target(name: "GtkAppShell", dependencies: ["TwoWayBindingGtk", "TwoWayBinding", "CTwoWayBindingGtkShims"]),
        // libadwaita's dialogs, toasts and About window, for GNOME apps; the
        // GTK layer above needs only GTK.
        .target(name: "TwoWayBindingAdw", dependencies: ["TwoWayBindingGtk", "TwoWayBinding", "CTwoWayBindingAdw"]),
        // XLSForm: reads a form (.xlsx, or pyxform's .csv and .md layouts),
        // evaluates its expressions and runs it as a `FormViewModel` on the
        // binding core. No GTK, no storage.
        .target(
            name: "FormEngine",
            dependencies: ["TwoWayBinding", "CZlib", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // zlib, which unpacks the workbook's parts: its inflate ends on any
        // input, at the stream's end or where the input runs out.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Stored responses (SQLite through GRDB), drafts and CSV export.
        .target(
            name: "SurveyStorage",
            dependencies: ["FormEngine", "TwoWayBinding", "CSQLite", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The same SQLite GRDB links, for an export's reads of raw column bytes.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The desktop keyring, for the server's password.
        .systemLibrary(
            name: "CSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // Delivery to a shared PostgreSQL server: the outbox's sender, the
        // server's schema and the export of what the server holds. No GTK.
        .target(
            name: "SurveySync",
            dependencies: [
                "SurveyStorage", "FormEngine", "OpenRosa", "CSecret",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // OpenRosa, the protocol of ODK Central, KoboToolbox and Ona: a
        // server's form list, form downloads with their media files,
        // submissions. No GTK.
        .target(
            name: "OpenRosa",
            dependencies: [
                "FormEngine",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The desktop application: its windows, the form renderer and its
        // controls, the command line. A library, so that Swift tests reach
        // all of it; the executable only runs it.
        .target(
            name: "SurveyFormApp",
            dependencies: [
                "FormEngine", "SurveyStorage", "SurveySync", "OpenRosa", "TwoWayBinding", "TwoWayBindingGtk",
                "TwoWayBindingAdw", "GtkAppShell",
            ],
            // The built-in survey's XLSForm, compiled in as bytes: no bundle
            // to find at run time.
            resources: [.embedInCode("Resources/survey.md")],
            plugins: ["GResourceCompiler"]
        ),
        .executableTarget(name: "SurveyForm", dependencies: ["SurveyFormApp"]),
        // Compiles Resources/ into a GResource bundle and po/ into catalogs.
        .plugin(name: "GResourceCompiler", capability: .buildTool()),

        .testTarget(name: "TwoWayBindingTests", dependencies: ["TwoWayBinding"]),
        // The one GTK test harness (GLib takes one log writer per process).
        .target(
            name: "GtkTestSupport",
            dependencies: ["TwoWayBinding", "TwoWayBindingGtk", "CTwoWayBindingGtkShims"],
            path: "Tests/GtkTestSupport"
        ),
        .testTarget(
            name: "TwoWayBindingGtkTests",
            // CTwoWayBindingAdw for a dialog whose signal passes a string.
            dependencies: [
                "TwoWayBindingGtk", "TwoWayBindingAdw", "TwoWayBinding", "CTwoWayBindingGtkShims", "CTwoWayBindingAdw", "GtkTestSupport",
            ]
        ),
        .testTarget(
            name: "GtkAppShellTests",
            dependencies: ["GtkAppShell", "TwoWayBindingGtk", "TwoWayBinding", "CTwoWayBindingGtkShims", "GtkTestSupport"]
        ),
        // CZlib to write the zip archives, hostile ones included, that the tests read.
        .testTarget(name: "FormEngineTests", dependencies: ["FormEngine", "TwoWayBinding", "CZlib"]),
        .testTarget(
            name: "SurveyStorageTests",
            // GtkTestSupport and TwoWayBindingGtk for the storage events under a running GLib main loop.
            dependencies: [
                "SurveyStorage", "FormEngine", "TwoWayBinding", "TwoWayBindingGtk", "GtkTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Read by path: a dump of a database a past release wrote, and a
            // database file written by schema v5.
            exclude: ["Fixtures"]
        ),
        // A laptop as a process of its own, which the load and crash tests
        // of SurveySyncTests start and kill (built with the tests).
        .executableTarget(
            name: "sync-load-worker",
            dependencies: ["SurveySync", "SurveyStorage", "FormEngine"],
            path: "Tests/SyncLoadWorker"
        ),
        .testTarget(
            name: "SurveySyncTests",
            dependencies: [
                "SurveySync", "SurveyStorage", "FormEngine",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "OpenRosaTests",
            dependencies: [
                "OpenRosa", "FormEngine",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The app's own code: the renderer's registry and each control kind
        // on real widgets, under Xvfb.
        .testTarget(
            name: "SurveyFormAppTests",
            dependencies: [
                "SurveyFormApp", "FormEngine", "TwoWayBinding", "TwoWayBindingGtk", "CTwoWayBindingGtkShims", "GtkTestSupport",
            ]
        ),
        // Randomized and long-running checks of the binding on real widgets.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["TwoWayBinding", "TwoWayBindingGtk", "CTwoWayBindingGtkShims", "GtkTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
