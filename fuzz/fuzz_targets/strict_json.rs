//! The JSON object reader that refuses a key twice: never panics, and whatever it accepts
//! serde_json reads the same.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = rag_gate::load::strict_json::value_from_slice(data) {
        let plain: serde_json::Value = serde_json::from_slice(data).expect("serde_json agrees");
        assert_eq!(v, plain);
    }
});
