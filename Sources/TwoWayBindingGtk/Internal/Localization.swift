import CGtk

/// `msgid` translated in the program's gettext domain.
func localized(_ msgid: String) -> String {
    String(cString: sf_gettext(msgid))
}
