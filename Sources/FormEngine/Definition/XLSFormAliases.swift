/// The names XLSForm accepts for one thing, mapped to the one name the engine
/// uses: column headers, settings keys and question types.
///
/// The tables follow what the reference converter (pyxform 4.5.0) accepts, so
/// that a form any XLSForm tool reads is read the same here.
enum XLSFormAliases {
    // MARK: - Survey columns

    /// Survey headers (snake-cased first token) → canonical column.
    static let surveyColumns: [String: String] = [
        "type": "type", "command": "type",
        "name": "name", "tag": "name", "value": "name",
        "label": "label", "caption": "label",
        "hint": "hint", "guidance_hint": "guidance_hint",
        "required": "required",
        "required_message": "required_message", "requiredmsg": "required_message",
        "constraint": "constraint",
        "constraint_message": "constraint_message", "constraining_message": "constraint_message",
        "relevant": "relevant", "relevance": "relevant",
        "calculation": "calculation", "calculate": "calculation",
        "default": "default",
        "read_only": "read_only", "readonly": "read_only",
        "appearance": "appearance",
        "choice_filter": "choice_filter",
        "parameters": "parameters",
        "repeat_count": "repeat_count", "count": "repeat_count", "jr:count": "repeat_count",
        "image": "media::image", "big-image": "media::big-image", "audio": "media::audio", "video": "media::video",
        "trigger": "trigger",
        "save_to": "save_to",
        // Survey Form's own: how an answer reads (see `Question.readout`).
        "readout": "readout",
    ]

    /// Second tokens of `bind::…`, `control::…` and `body::…` headers that
    /// name a column the engine knows.
    static let groupedColumns: [String: String] = [
        "bind::relevant": "relevant", "bind::required": "required", "bind::constraint": "constraint",
        "bind::calculate": "calculation", "bind::readonly": "read_only",
        "bind::jr:constraintMsg": "constraint_message", "bind::jr:requiredMsg": "required_message",
        "control::appearance": "appearance", "control::jr:count": "repeat_count",
        "body::appearance": "appearance", "body::jr:count": "repeat_count",
        "bind::entities:saveto": "save_to",
    ]

    /// Columns whose text comes per language (`label::Deutsch (de)`).
    static let translatableColumns: Set<String> = [
        "label", "hint", "guidance_hint", "constraint_message", "required_message",
        "media::image", "media::big-image", "media::audio", "media::video",
        // Survey Form's own: how an answer reads (see `Question.readout`).
        "readout",
    ]

    // MARK: - Choices and settings

    /// Choices headers → canonical column; others are kept as the choice's properties.
    static let choiceColumns: [String: String] = [
        "list_name": "list_name", "name": "name", "value": "name",
        "label": "label", "caption": "label",
        "image": "media::image", "big-image": "media::big-image", "audio": "media::audio", "video": "media::video",
    ]

    /// Settings headers → canonical key.
    static let settingsKeys: [String: String] = [
        "form_title": "form_title", "set_form_title": "form_title", "title": "form_title",
        "form_id": "form_id", "set_form_id": "form_id", "id_string": "form_id",
        "version": "version", "default_language": "default_language", "instance_name": "instance_name",
    ]

    // MARK: - Types

    /// Every type pyxform accepts without a list → canonical XLSForm name.
    static let types: [String: QuestionType] = {
        var table: [String: QuestionType] = [:]
        func add(_ canonical: String, _ aliases: String...) {
            table[canonical] = QuestionType(canonical)
            for alias in aliases { table[alias] = QuestionType(canonical) }
        }
        add("text", "string", "q string", "add text prompt", "phone number")
        add("integer", "int", "q int", "add integer prompt", "percentage",
            "number of days in last month", "number of days in last six months", "number of days in last year")
        add("decimal", "q decimal", "add decimal prompt")
        add("range")
        add("note", "q note", "add note prompt")
        add("date", "q date", "add date prompt")
        add("time")
        add("dateTime", "datetime", "date time", "q date time", "q dateTime", "add date time prompt", "add dateTime prompt")
        add("acknowledge", "trigger", "q acknowledge", "add acknowledge prompt")
        add("calculate", "q calculate", "add calculate prompt")
        add("hidden")
        add("geopoint", "gps", "location", "q location", "q geopoint", "add location prompt")
        add("geotrace", "q geotrace")
        add("geoshape", "q geoshape")
        add("image", "photo", "q picture", "q image", "add image prompt", "add photo prompt")
        add("audio", "q audio", "add audio prompt")
        add("video", "q video", "add video prompt")
        add("file", "add file prompt")
        add("osm")
        add("barcode", "q barcode", "add barcode prompt")
        add("start", "start time", "get start time")
        add("end", "end time", "get end time")
        add("today", "get today")
        add("deviceid", "device id", "get device id", "imei")
        add("username")
        add("email")
        add("phonenumber", "get phone number")
        add("simserial", "sim id", "get sim id")
        add("subscriberid", "subscriber id", "get subscriber id")
        add("uri:deviceid")
        add("uri:username")
        add("uri:email")
        add("uri:phonenumber")
        add("uri:subscriberid")
        add("uri:simserial")
        add("audit")
        add("start-geopoint")
        add("background-audio")
        add("background-geopoint")
        add("xml-external")
        add("csv-external")
        return table
    }()

    /// The constraints pyxform's types bring with them (its question type
    /// dictionary's binds), which ODK Collect then enforces.
    static let typeConstraints: [String: String] = [
        "phone number": #"regex(., '^\d*$')"#,
        "percentage": "0 <= . and . <= 100",
        "number of days in last month": "0 <= . and . <= 31",
        "number of days in last six months": "0 <= . and . <= 183",
        "number of days in last year": "0 <= . and . <= 365",
    ]

    /// Select commands that take a list (`select_one LIST`) → canonical type.
    static let selectCommands: [String: QuestionType] = [
        "select_one": .selectOne, "select one": .selectOne, "select1": .selectOne,
        "select one from": .selectOne, "add select one prompt using": .selectOne,
        "select_multiple": .selectMultiple, "select all that apply": .selectMultiple,
        "select all that apply from": .selectMultiple, "add select multiple prompt using": .selectMultiple,
        "select_one_from_file": .selectOneFromFile, "select one from file": .selectOneFromFile,
        "select_multiple_from_file": .selectMultipleFromFile, "select multiple from file": .selectMultipleFromFile,
        "select_one_external": .selectOneExternal,
        "rank": .rank,
    ]

    /// The select commands, longest first, so that `select_one_external` is
    /// not read as `select_one` and a list named `external`.
    /// Each with the space that follows it in a type (`select_one `).
    static let selectCommandsLongestFirst = selectCommands.sorted { $0.key.count > $1.key.count }
        .map { (prefix: $0.key + " ", type: $0.value) }

    /// The words after `begin`/`end` → container type.
    static let containers: [String: QuestionType] = [
        "group": .group, "repeat": .repeatGroup, "lgroup": .repeatGroup, "looped group": .repeatGroup,
        "loop": .loop,
    ]

    /// Types whose row shows a control, and so needs a label or a hint.
    static let shownTypes: Set<QuestionType> = [
        .text, .integer, .decimal, .range, .note, .acknowledge, .selectOne, .selectMultiple, .rank,
        .selectOneFromFile, .selectMultipleFromFile, .date, .time, .dateTime,
        QuestionType("geopoint"), QuestionType("geotrace"), QuestionType("geoshape"),
        QuestionType("image"), QuestionType("audio"), QuestionType("video"), QuestionType("file"),
        QuestionType("barcode"),
    ]

    /// The words after a select's list that add an "other" choice, with the
    /// space before them.
    static let otherSuffixes = [" or specify other", " or_other", " or other"]
}
