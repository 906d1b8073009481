import CTwoWayBindingGtkShims

/// `msgid` translated in the program's gettext domain.
func localized(_ msgid: String) -> String {
    // gettext hands back its argument when there is no translation: copy it
    // while the temporary C string still exists.
    msgid.withCString { String(cString: twb_gettext($0)) }
}
