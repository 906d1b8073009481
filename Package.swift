// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SurveyForm",
    products: [
        .library(name: "TwoWayBinding", targets: ["TwoWayBinding"]),
        .library(name: "SurveyModel", targets: ["SurveyModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The binding core: observables, derived values, transactions, the
        // binding engine, undo and the event bus. Knows nothing of GTK.
        .target(name: "TwoWayBinding"),
        // The survey's view model: state, validation, formatting. No GTK.
        .target(name: "SurveyModel", dependencies: ["TwoWayBinding"]),

        // Stored responses (SQLite through GRDB), drafts and CSV export.
        .target(
            name: "SurveyStorage",
            dependencies: ["SurveyModel", .product(name: "GRDB", package: "GRDB.swift")]
        ),

        .testTarget(name: "TwoWayBindingTests", dependencies: ["TwoWayBinding"]),
        .testTarget(name: "SurveyModelTests", dependencies: ["SurveyModel", "TwoWayBinding"]),
        .testTarget(name: "SurveyStorageTests", dependencies: ["SurveyStorage", "SurveyModel"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
