// swift-tools-version:6.0
import PackageDescription

// An app adopting TwoWayBindingGtk, as another project would: it depends on
// the library's products and on nothing of Survey Form's. The test suite
// builds it, and builds the library's documentation from here with
// swift-docc-plugin, so that the app's own build needs no plugin.
let package = Package(
    name: "TwoWayBindingExamples",
    dependencies: [
        .package(name: "SurveyForm", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "Greeter",
            dependencies: [
                .product(name: "TwoWayBinding", package: "SurveyForm"),
                .product(name: "TwoWayBindingGtk", package: "SurveyForm"),
                // The application the greeter runs in.
                .product(name: "GtkAppShell", package: "SurveyForm"),
                // Not used by the greeter: named so that its documentation
                // can be built from here too.
                .product(name: "TwoWayBindingAdw", package: "SurveyForm"),
            ],
            resources: [.embedInCode("greeter.ui")]
        ),
    ]
)
