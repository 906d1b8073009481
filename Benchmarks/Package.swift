// swift-tools-version:6.1
import PackageDescription

// The app's package, by path; its identity is the name of its folder, which
// differs between clones, so it is computed.
let appPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main").lowercased()

// Benchmarks of the binding core and its GTK layer, against OpenCombine and
// GObject's own GBinding. A package of its own so that the app keeps no
// benchmark dependency: `Benchmarks/run` builds and runs everything.
//
// Cross-module optimization: the hot paths of TwoWayBinding are in another
// module (the main package). The flag below only affects the modules of this
// package; what makes the core's setter inlinable here is `@inlinable` on the
// few hot members of `Observable` in the core itself (see the README's
// benchmark section), so the app gets the same code as the benchmark.
let optimize: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization"]),
    // The Benchmark API passes non-Sendable values into main-actor code.
    .swiftLanguageMode(.v5),
]

let package = Package(
    name: "SurveyFormBenchmarks",
    platforms: [.macOS(.v14)],
    products: [
        // Preloaded into both cold-start programs to time their first frame.
        .library(name: "FirstFrameProbe", type: .dynamic, targets: ["FirstFrameProbe"]),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // GTK 4 for this package's own C and Swift targets.
        .systemLibrary(name: "CGtkBench", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CAdwBench", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        // The peers in C: raw setters, GBinding, a bare signal handler, a generated form.
        .target(name: "CBenchGtk", dependencies: ["CGtkBench"]),

        // ns-scale operations of the core, ours and OpenCombine's.
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TwoWayBinding", package: appPackage),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            swiftSettings: optimize,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The GTK cases: model ⇄ widget through our binding, the raw GTK API
        // and GBinding, and lists, on real widgets (under Xvfb).
        .target(
            name: "GtkCases",
            dependencies: [
                .product(name: "TwoWayBinding", package: appPackage),
                .product(name: "TwoWayBindingGtk", package: appPackage),
                "CBenchGtk", "CGtkBench",
            ],
            swiftSettings: optimize
        ),
        // The GTK cases timed (and their instructions, where perf counts them).
        .executableTarget(
            name: "GtkBenchmarks",
            dependencies: [.product(name: "Benchmark", package: "benchmark"), "GtkCases", "CBenchGtk"],
            path: "Benchmarks/GtkBenchmarks",
            swiftSettings: optimize,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The GTK cases' instructions under callgrind, where perf counts none.
        .executableTarget(
            name: "gtk-instructions",
            dependencies: ["GtkCases", "CBenchGtk"],
            path: "Sources/GtkInstructions",
            swiftSettings: optimize
        ),
        // Binding N widgets of a generated form: time and memory against N.
        .executableTarget(
            name: "scale-form",
            dependencies: [
                .product(name: "TwoWayBinding", package: appPackage),
                .product(name: "TwoWayBindingGtk", package: appPackage),
                "CBenchGtk", "CGtkBench",
            ],
            path: "Sources/ScaleForm",
            swiftSettings: optimize
        ),
        // The forms engine on whole generated forms: reading, and one change.
        .executableTarget(
            name: "form-bench",
            dependencies: [.product(name: "FormEngine", package: appPackage)],
            path: "Sources/FormBench",
            swiftSettings: optimize
        ),
        .target(name: "FirstFrameProbe", dependencies: ["CGtkBench", "CAdwBench"]),
        // The first-frame peer of the app's window (the built-in survey's at
        // cold start, a generated form's): a C libadwaita program that loads
        // the same widgets from a .ui file.
        .executableTarget(
            name: "form-firstframe-c", dependencies: ["CGtkBench", "CAdwBench"], path: "Sources/FormFirstFrameC"
        ),
    ]
)
