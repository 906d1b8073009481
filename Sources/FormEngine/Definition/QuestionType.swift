/// A survey row's type by the name the XLSForm specification's type table
/// gives it (`select_one`, `dateTime`, `group`, ...), whatever alias the form
/// used.
public struct QuestionType: Sendable, Hashable, CustomStringConvertible {
    /// The canonical name.
    public let name: String

    /// Creates a type from its canonical name.
    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }

    public static let text = QuestionType("text")
    public static let integer = QuestionType("integer")
    public static let decimal = QuestionType("decimal")
    public static let range = QuestionType("range")
    public static let selectOne = QuestionType("select_one")
    public static let selectMultiple = QuestionType("select_multiple")
    public static let selectOneFromFile = QuestionType("select_one_from_file")
    public static let selectMultipleFromFile = QuestionType("select_multiple_from_file")
    public static let selectOneExternal = QuestionType("select_one_external")
    public static let rank = QuestionType("rank")
    public static let note = QuestionType("note")
    public static let date = QuestionType("date")
    public static let time = QuestionType("time")
    public static let dateTime = QuestionType("dateTime")
    public static let acknowledge = QuestionType("acknowledge")
    public static let calculate = QuestionType("calculate")
    public static let hidden = QuestionType("hidden")
    public static let group = QuestionType("group")
    public static let repeatGroup = QuestionType("repeat")
    /// `begin loop over LIST`: read as a group holding a group per choice
    /// (`Question.loop`), so it runs as `group`; the type names the row alone.
    public static let loop = QuestionType("loop")
    public static let start = QuestionType("start")
    public static let end = QuestionType("end")
    public static let today = QuestionType("today")
    public static let deviceID = QuestionType("deviceid")
    public static let username = QuestionType("username")
    public static let email = QuestionType("email")
    public static let phoneNumber = QuestionType("phonenumber")
    public static let simSerial = QuestionType("simserial")
    public static let subscriberID = QuestionType("subscriberid")
    public static let startGeopoint = QuestionType("start-geopoint")
    public static let backgroundGeopoint = QuestionType("background-geopoint")
    public static let barcode = QuestionType("barcode")
    public static let geopoint = QuestionType("geopoint")
    public static let geotrace = QuestionType("geotrace")
    public static let geoshape = QuestionType("geoshape")
    public static let image = QuestionType("image")
    public static let audio = QuestionType("audio")
    public static let video = QuestionType("video")
    public static let file = QuestionType("file")
    public static let backgroundAudio = QuestionType("background-audio")
    /// OpenStreetMap data (an `.osm` file), which Collect has OpenMapKit make.
    public static let osm = QuestionType("osm")
    public static let audit = QuestionType("audit")

    /// Whether the row holds other rows.
    public var isContainer: Bool { self == .group || self == .repeatGroup || self == .loop }

    /// Whether the answer is one of a choice list's names (or several).
    public var isSelect: Bool {
        self == .selectOne || self == .selectMultiple || self == .rank
            || self == .selectOneFromFile || self == .selectMultipleFromFile || self == .selectOneExternal
    }

    /// Whether the answer is one choice's name (a choice list's, or a data file's row).
    public var isSelectOne: Bool { self == .selectOne || self == .selectOneFromFile || self == .selectOneExternal }

    /// Whether the answer is several choices' names, space-separated (a rank's in order).
    public var isSelectMultiple: Bool { self == .selectMultiple || self == .selectMultipleFromFile || self == .rank }

    /// Whether the engine can collect and run it: the types a desktop form
    /// shows or computes, and the metadata the app fills in.
    public var isCollectable: Bool { Self.collectable.contains(self) }

    /// Whether the respondent gives the answer (so it can be required or refused).
    public var isAnswerable: Bool {
        !isContainer && self != .note && self != .calculate && !isMetadata && !isDataFileDeclaration
    }

    /// Whether the answer is the name of a file stored with the response
    /// (XForms' `binary`): a photo, a recording, a document.
    public var isAttachment: Bool {
        self == .image || self == .audio || self == .video || self == .file || self == .backgroundAudio
            || self == .audit || self == .osm
    }

    /// Metadata the app fills in itself rather than asking for.
    public var isMetadata: Bool { Self.metadata.contains(self) }

    private static let collectable: Set<QuestionType> = Set<QuestionType>([
        .text, .integer, .decimal, .range, .selectOne, .selectMultiple, .date, .time, .dateTime,
        .note, .acknowledge, .calculate, .hidden, .group, .repeatGroup,
        .start, .end, .today, .geopoint, .geotrace, .geoshape, .barcode,
        .image, .audio, .video, .file, .backgroundAudio, .osm,
        .selectOneFromFile, .selectMultipleFromFile, .selectOneExternal, .csvExternal, .xmlExternal,
    ]).union(metadata)
    /// As ODK Collect on a device without a phone's identities fills them:
    /// what the user gave in Preferences, else blank; never refused.
    private static let metadata: Set<QuestionType> = [
        .start, .end, .today, .deviceID, .username, .email, .phoneNumber, .simSerial, .subscriberID,
        QuestionType("uri:deviceid"), QuestionType("uri:username"), QuestionType("uri:email"),
        QuestionType("uri:phonenumber"), QuestionType("uri:simserial"), QuestionType("uri:subscriberid"),
        // A desktop has no position of its own to record: blank, as Collect
        // leaves them when no fix arrives.
        .startGeopoint, .backgroundGeopoint,
        // Its log is the app's own (`AuditLog`), written as `audit.csv`.
        .audit,
    ]
}
