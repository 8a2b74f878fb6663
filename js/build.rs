//! The addon's link flags (napi-build: on macOS, Node's symbols resolved at load time).
//! Nothing to do for the WebAssembly module.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_FAMILY").as_deref() != Ok("wasm") {
        napi_build::setup();
    }
}
