import FormEngine

/// What a form's metadata rows take from the person collecting, as
/// Preferences sets it: each blank unless given.
struct FormMetadata: Equatable {
    var username = ""
    var email = ""
    var phoneNumber = ""

    /// The environment a form runs in with these details. The device id is
    /// the response database's, given once it has opened
    /// (`FormViewModel.provide(deviceID:)`).
    var environment: FormEnvironment {
        FormEnvironment(username: username, email: email, phoneNumber: phoneNumber, notation: .desktop)
    }
}
