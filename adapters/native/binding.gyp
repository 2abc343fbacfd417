{
  "targets": [
    {
      "target_name": "wallet_core",
      "sources": [
        "src/addon.cc",
        "src/barcode.cc",
        "src/base64.cc",
        "src/core.cc",
        "src/hmac.cc",
        "src/json.cc",
        "src/native_core.cc",
        "src/native_sign.cc",
        "src/native_verify.cc",
        "src/otp.cc",
        "src/selftest.cc",
        "src/sha.cc",
        "src/token.cc",
        "src/utf8.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_DISABLE_CPP_EXCEPTIONS",
        "NODE_ADDON_API_DISABLE_DEPRECATED",
        "OPENSSL_API_COMPAT=10101",
        "OPENSSL_SUPPRESS_DEPRECATED"
      ],
      "cflags!": ["-O2"],
      "cflags_cc!": ["-O2", "-std=gnu++17"],
      "cflags": ["-O3", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags_cc": ["-O3", "-std=c++17", "-fno-exceptions"],
      "xcode_settings": {
        "GCC_OPTIMIZATION_LEVEL": "3",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "OTHER_CFLAGS": ["-fvisibility=hidden"]
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "ExceptionHandling": 0, "AdditionalOptions": ["/std:c++17"] }
      }
    }
  ]
}
