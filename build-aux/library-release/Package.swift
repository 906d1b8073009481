// swift-tools-version:6.0
import PackageDescription

// The binding library and its own tests, alone: the release run of those
// tests (build-aux/run-tests with RUN_TESTS_RELEASE) builds this package, so
// that it optimizes the library and not the whole app with its database and
// network packages. Its folders are links to the project's own; the targets
// are declared as in the project's Package.swift, which stays the one
// description of the app.
let package = Package(
    name: "TwoWayBindingRelease",
    targets: [
        .target(name: "TwoWayBinding"),
        .systemLibrary(name: "CTwoWayBindingGtkShims", pkgConfig: "gtk4"),
        .systemLibrary(name: "CTwoWayBindingAdw", pkgConfig: "libadwaita-1"),
        .target(name: "CTwoWayBindingGtk", dependencies: ["CTwoWayBindingGtkShims"]),
        .target(name: "TwoWayBindingGtk", dependencies: ["TwoWayBinding", "CTwoWayBindingGtkShims", "CTwoWayBindingGtk"]),
        .target(name: "TwoWayBindingAdw", dependencies: ["TwoWayBindingGtk", "TwoWayBinding", "CTwoWayBindingAdw"]),
        .target(
            name: "GtkTestSupport",
            dependencies: ["TwoWayBinding", "TwoWayBindingGtk", "CTwoWayBindingGtkShims"],
            path: "Tests/GtkTestSupport"
        ),
        .testTarget(name: "TwoWayBindingTests", dependencies: ["TwoWayBinding"]),
        .testTarget(
            name: "TwoWayBindingGtkTests",
            dependencies: [
                "TwoWayBindingGtk", "TwoWayBindingAdw", "TwoWayBinding", "CTwoWayBindingGtkShims", "CTwoWayBindingAdw", "GtkTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
