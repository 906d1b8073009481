/// FNV-1a, 64 bits, of a text's UTF-8: the same across runs and builds,
/// unlike `Hasher`, for names made from ids (a draft's file, an export's).
package enum StableHash {
    package static func of(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
