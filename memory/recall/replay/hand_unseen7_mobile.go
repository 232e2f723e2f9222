package replay

// unseen7Mobile: xcodebuild, CocoaPods, Gradle for Android, Flutter and
// React Native.
func unseen7Mobile(h *hand) {
	// CocoaPods on Apple Silicon: the Rosetta trick, said obsolete later.
	h.note(Note{ID: "cocoapods-ffi-rosetta", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2022, 4, 19),
		Title:   "pod install on M1: LoadError ffi_c.bundle, incompatible architecture",
		What:    "`cd ios && pod install` → LoadError - dlopen(/Library/Ruby/Gems/2.6.0/gems/ffi-1.15.5/lib/ffi_c.bundle, 0x0009): missing compatible arch in .../ffi_c.bundle.",
		Why:     "CocoaPods runs on the system Ruby 2.6 and the ffi gem was compiled for x86_64.",
		Where:   "ios/, system Ruby gems",
		Learned: "Run it under Rosetta with an x86_64 ffi.",
		Fix:     "sudo arch -x86_64 gem install ffi && arch -x86_64 pod install"})
	h.note(Note{ID: "cocoapods-brew", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2024, 9, 3), ProseOver: "cocoapods-ffi-rosetta",
		Title:   "CocoaPods ffi arch error on the new M3 — stop using arch -x86_64, use Homebrew's cocoapods",
		What:    "The ffi_c.bundle 'incompatible architecture' LoadError is back on the new laptop, and the `arch -x86_64 pod install` dance from my 2022 note fails outright there (arch: posix_spawnp: pod: Bad CPU type in executable — no Rosetta installed).",
		Why:     "The Rosetta workaround only ever papered over system Ruby 2.6 with mixed-arch gems; that approach is obsolete on arm64-only setups.",
		Where:   "ios/, Homebrew",
		Learned: "Remove the system-Ruby cocoapods and ffi gems, install cocoapods from Homebrew (its own arm64 Ruby). Or the Gemfile way: rbenv Ruby 3.3 + bundle exec pod install.",
		Fix:     "sudo gem uninstall cocoapods ffi && brew install cocoapods && cd ios && pod install"})
	h.ask("cocoapods-brew/1", "sloeberry", "macos", "cd ios && pod install", `
[!] Oh no, an error occurred.

Search for existing GitHub issues similar to yours:
https://github.com/CocoaPods/CocoaPods/search?q=dlopen...&type=Issues

LoadError - dlopen(/Library/Ruby/Gems/2.6.0/gems/ffi-1.16.3/lib/ffi_c.bundle, 0x0009): tried: '/Library/Ruby/Gems/2.6.0/gems/ffi-1.16.3/lib/ffi_c.bundle' (mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64e' or 'arm64')), '/System/Volumes/Preboot/Cryptexes/OS/Library/Ruby/Gems/2.6.0/gems/ffi-1.16.3/lib/ffi_c.bundle' (no such file) - /Library/Ruby/Gems/2.6.0/gems/ffi-1.16.3/lib/ffi_c.bundle
/System/Library/Frameworks/Ruby.framework/Versions/2.6/usr/lib/ruby/2.6.0/rubygems/core_ext/kernel_require.rb:54:in §require'
/Library/Ruby/Gems/2.6.0/gems/ffi-1.16.3/lib/ffi.rb:5:in §rescue in <top (required)>'
`, "cocoapods-brew", "superseded in prose", "cocoapods-ffi-rosetta")

	h.note(Note{ID: "pod-update-firebase", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2023, 2, 22),
		Title:   "pod install: could not find compatible versions for FirebaseMessaging after RNFB bump",
		What:    "After bumping @react-native-firebase/messaging, `pod install` → CocoaPods could not find compatible versions for pod \"FirebaseMessaging\": In snapshot (Podfile.lock): FirebaseMessaging (= 10.3.0) ... depends on FirebaseMessaging (~> 10.5.0).",
		Why:     "Podfile.lock pins the old Firebase pods; `pod install --repo-update` alone doesn't move locked pods.",
		Where:   "ios/Podfile.lock",
		Learned: "Update exactly the Firebase pods (pod update Firebase FirebaseMessaging --repo-update), not a full pod update that moves everything.",
		Fix:     "cd ios && pod update Firebase FirebaseMessaging FirebaseCore --repo-update"})
	h.ask("pod-update-firebase/1", "sloeberry", "macos", "npx pod-install", `
[!] CocoaPods could not find compatible versions for pod "FirebaseMessaging":
  In snapshot (Podfile.lock):
    FirebaseMessaging (= 10.18.0)

  In Podfile:
    RNFBMessaging (from §../node_modules/@react-native-firebase/messaging§) was resolved to 19.2.2, which depends on
      Firebase/Messaging (= 10.24.0) was resolved to 10.24.0, which depends on
        FirebaseMessaging (~> 10.24.0)


You have either:
 * out-of-date source repos which you can update with §pod repo update§ or with §pod install --repo-update§.
 * changed the constraints of dependency §FirebaseMessaging§ inside your development pod §RNFBMessaging§.
   You should run §pod update FirebaseMessaging§ to apply changes you've made.
`, "pod-update-firebase", "another tool version's wording")
	h.ask("pod-hermes/1", "sloeberry", "macos", "cd ios && pod install", `
[!] CocoaPods could not find compatible versions for pod "hermes-engine":
  In snapshot (Podfile.lock):
    hermes-engine (from §../node_modules/react-native/sdks/hermes-engine/hermes-engine.podspec§)

  In Podfile:
    hermes-engine (from §../node_modules/react-native/sdks/hermes-engine/hermes-engine.podspec§)

Specs satisfying the §hermes-engine (from §../node_modules/react-native/sdks/hermes-engine/hermes-engine.podspec§)§ dependency were found, but they required a higher minimum deployment target.
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "xcode-script-sandbox", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2024, 1, 25),
		Title:   "Xcode 15: Sandbox: rsync deny file-write-create in [CP] Embed Pods Frameworks",
		What:    "iOS build broke after the Xcode 15 upgrade: error: Sandbox: rsync.samba(41521) deny(1) file-write-create .../sloeberry.app/Frameworks/hermes.framework/...",
		Why:     "Xcode 15 turns on ENABLE_USER_SCRIPT_SANDBOXING for new/upgraded projects; the CocoaPods embed script writes outside the declared outputs.",
		Where:   "ios/sloeberry.xcodeproj build settings (User Script Sandboxing)",
		Learned: "Set User Script Sandboxing = No for the app target (and in the Podfile post_install for pod targets).",
		Fix:     "sed -i '' 's/ENABLE_USER_SCRIPT_SANDBOXING = YES;/ENABLE_USER_SCRIPT_SANDBOXING = NO;/' ios/sloeberry.xcodeproj/project.pbxproj"})
	h.ask("xcode-script-sandbox/1", "sloeberry", "macos", "xcodebuild -workspace ios/sloeberry.xcworkspace -scheme sloeberry -sdk iphonesimulator build", `
PhaseScriptExecution [CP]\ Embed\ Pods\ Frameworks /Users/maria/Library/Developer/Xcode/DerivedData/sloeberry-fmhqzbtlcswdxfhbtnxzefvyoqkn/Build/Intermediates.noindex/sloeberry.build/Debug-iphonesimulator/sloeberry.build/Script-8C1F3E2A9D.sh (in target 'sloeberry' from project 'sloeberry')
    cd /Users/maria/code/sloeberry/ios
    /bin/sh -c /Users/maria/Library/Developer/Xcode/DerivedData/sloeberry-fmhqzbtlcswdxfhbtnxzefvyoqkn/Build/Intermediates.noindex/sloeberry.build/Debug-iphonesimulator/sloeberry.build/Script-8C1F3E2A9D.sh
...
error: Sandbox: rsync.samba(41873) deny(1) file-write-create /Users/maria/Library/Developer/Xcode/DerivedData/sloeberry-fmhqzbtlcswdxfhbtnxzefvyoqkn/Build/Products/Debug-iphonesimulator/sloeberry.app/Frameworks/React.framework/.React.8fQ2kx (in target 'sloeberry' from project 'sloeberry')

** BUILD FAILED **


The following build commands failed:
	PhaseScriptExecution [CP]\ Embed\ Pods\ Frameworks /Users/maria/Library/Developer/Xcode/DerivedData/sloeberry-fmhqzbtlcswdxfhbtnxzefvyoqkn/Build/Intermediates.noindex/sloeberry.build/Debug-iphonesimulator/sloeberry.build/Script-8C1F3E2A9D.sh (in target 'sloeberry' from project 'sloeberry')
(1 failure)
`, "xcode-script-sandbox", "stored: the tool's own wording")

	h.note(Note{ID: "xcode-provisioning-updates", Project: "kitehop", OS: "macos", Lang: "dart", At: day(2026, 2, 10),
		Title:   "flutter build ipa: No profiles for 'dev.kitehop.app' were found",
		What:    "On the new CI Mac, `flutter build ipa` fails in xcodebuild archive: error: No profiles for 'dev.kitehop.app' were found: Xcode couldn't find any iOS App Development provisioning profiles matching 'dev.kitehop.app'.",
		Why:     "Automatic signing is on, but xcodebuild only creates/downloads profiles when allowed to; the CI user had never signed in to Xcode.",
		Where:   "ios/Runner.xcodeproj, CI signing step",
		Learned: "Pass -allowProvisioningUpdates together with the App Store Connect API key flags (-authenticationKeyPath/-authenticationKeyID/-authenticationKeyIssuerID) so no Xcode login is needed.",
		Fix:     "xcodebuild -workspace ios/Runner.xcworkspace -scheme Runner -allowProvisioningUpdates -authenticationKeyPath ~/keys/AuthKey.p8 -authenticationKeyID $ASC_KEY_ID -authenticationKeyIssuerID $ASC_ISSUER archive"})
	h.ask("xcode-provisioning-updates/1", "kitehop", "macos", "flutter build ipa --release", `
Archiving dev.kitehop.app...
Automatically signing iOS for device deployment using specified development team in Xcode project: 7QX2K9L4PD
Running pod install...                                              1,204ms
Running Xcode build...                                                  
Xcode archive done.                                         14.3s
Failed to build iOS app
Error (Xcode): No profiles for 'dev.kitehop.app' were found: Xcode couldn't find any iOS App Development provisioning profiles matching 'dev.kitehop.app'. Automatic signing is disabled and unable to generate a profile. To enable automatic signing, pass -allowProvisioningUpdates to xcodebuild.
/Users/ci/builds/kitehop/ios/Runner.xcodeproj


Encountered error while archiving for device.
`, "xcode-provisioning-updates", "stored: the tool's own wording")
	h.ask("xcode-no-team/1", "kitehop", "macos", "flutter build ipa", `
Failed to build iOS app
Error (Xcode): Signing for "Runner" requires a development team. Select a development team in the Signing & Capabilities editor.
/Users/maria/code/kitehop/ios/Runner.xcodeproj


Encountered error while archiving for device.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "agp8-namespace-plugin", Project: "kitehop", OS: "linux", Lang: "dart", At: day(2023, 10, 30),
		Title:   "flutter build apk with AGP 8: Namespace not specified for flutter_native_splash",
		What:    "After moving to AGP 8.1, `flutter build apk` → A problem occurred configuring project ':flutter_native_splash'. > Namespace not specified. Specify a namespace in the module's build file.",
		Why:     "AGP 8 requires `namespace` in every Android module's build.gradle; our pinned flutter_native_splash 2.2 only had the package attribute in its manifest.",
		Where:   "pubspec.yaml (flutter_native_splash)",
		Learned: "Newer plugin versions declare the namespace; upgrade the plugin rather than patching the pub cache.",
		Fix:     "flutter pub upgrade flutter_native_splash && flutter clean && flutter build apk"})
	h.ask("agp8-namespace-plugin/1", "kitehop", "linux", "flutter build apk --release", `
FAILURE: Build failed with an exception.

* What went wrong:
A problem occurred configuring project ':flutter_native_splash'.
> Could not create an instance of type com.android.build.api.variant.impl.LibraryVariantBuilderImpl.
   > Namespace not specified. Specify a namespace in the module's build file. See https://d.android.com/r/tools/upgrade-assistant/set-namespace for information about setting the namespace.

     If you've specified the package attribute in the source AndroidManifest.xml, you can use the AGP Upgrade Assistant to migrate to the namespace value in the build file. Refer to https://d.android.com/r/tools/upgrade-assistant/agp-upgrade-assistant for general information about using the AGP Upgrade Assistant.

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 21s
Running Gradle task 'assembleRelease'...                           22.4s
Gradle task assembleRelease failed with exit code 1
`, "agp8-namespace-plugin", "stored: the tool's own wording")
	h.ask("agp8-namespace-isar/1", "kitehop", "linux", "flutter build apk", `
FAILURE: Build failed with an exception.

* What went wrong:
A problem occurred configuring project ':isar_flutter_libs'.
> Could not create an instance of type com.android.build.api.variant.impl.LibraryVariantBuilderImpl.
   > Namespace not specified. Specify a namespace in the module's build file. See https://d.android.com/r/tools/upgrade-assistant/set-namespace for information about setting the namespace.

BUILD FAILED in 9s
`, "", "never stored: same kind, another object")

	h.note(Note{ID: "agp-java17", Project: "kitehop", OS: "windows", Lang: "dart", At: day(2024, 6, 24),
		Title:   "Android Gradle plugin requires Java 17 — JAVA_HOME points at 11",
		What:    "`flutter build apk` on the Windows box: Failed to apply plugin 'com.android.internal.application'. > Android Gradle plugin requires Java 17 to run. You are currently using Java 11.",
		Why:     "JAVA_HOME is set to Temurin 11 for another project, and Flutter's Gradle run uses JAVA_HOME over Android Studio's bundled JBR.",
		Where:   "flutter config, system env JAVA_HOME",
		Learned: "Tell flutter which JDK to use instead of changing JAVA_HOME globally.",
		Fix:     "flutter config --jdk-dir \"C:\\Program Files\\Android\\Android Studio\\jbr\""})
	h.ask("agp-java17/1", "kitehop", "windows", "flutter build apk", u7crlf(`
FAILURE: Build failed with an exception.

* Where:
Build file 'C:\Users\dev\src\kitehop\android\app\build.gradle' line: 2

* What went wrong:
An exception occurred applying plugin request [id: 'com.android.application']
> Failed to apply plugin 'com.android.internal.application'.
   > Android Gradle plugin requires Java 17 to run. You are currently using Java 11.
      Your current JDK is located in C:\Program Files\Eclipse Adoptium\jdk-11.0.21.9-hotspot
      You can try some of the following options:
       - changing the IDE settings.
       - changing the JAVA_HOME environment variable.
       - changing §org.gradle.java.home§ in §gradle.properties§.

BUILD FAILED in 3s
`), "agp-java17", "windows console")
	h.ask("agp-java17/2", "sloeberry", "macos", "cd android && ./gradlew assembleDebug", `
FAILURE: Build failed with an exception.

* What went wrong:
An exception occurred applying plugin request [id: 'com.android.application']
> Failed to apply plugin 'com.android.internal.application'.
   > Android Gradle plugin requires Java 17 to run. You are currently using Java 11.
      Your current JDK is located in /Library/Java/JavaVirtualMachines/zulu-11.jdk/Contents/Home
      You can try some of the following options:
       - changing the IDE settings.
       - changing the JAVA_HOME environment variable.
       - changing §org.gradle.java.home§ in §gradle.properties§.
`, "", "another project's project note")

	h.note(Note{ID: "metro-emfile-watchman", Project: "sloeberry", OS: "macos", Lang: "typescript", At: day(2023, 8, 29),
		Title:   "Metro crashes with EMFILE: too many open files, watch",
		What:    "`yarn start` dies a few seconds after bundling: Error: EMFILE: too many open files, watch at FSEvent.FSWatcher._handle.onchange.",
		Why:     "Without watchman, Metro falls back to node's fs.watch, which opens a descriptor per directory and hits macOS's per-process limit in this monorepo.",
		Where:   "local machine",
		Learned: "Install watchman; Metro picks it up automatically. Raising ulimit -n only delays it.",
		Fix:     "brew install watchman && watchman watch-del-all && yarn start --reset-cache"})
	h.ask("metro-emfile-watchman/1", "sloeberry", "macos", "yarn start", `
                Welcome to Metro v0.80.9
              Fast - Scalable - Integrated

node:events:497
      throw er; // Unhandled 'error' event
      ^

Error: EMFILE: too many open files, watch
    at FSWatcher._handle.onchange (node:internal/fs/watchers:207:21)
Emitted 'error' event on NodeWatcher instance at:
    at FSWatcher._checkedEmitError (/Users/maria/code/sloeberry/node_modules/metro-file-map/src/watchers/NodeWatcher.js:82:12)
  errno: -24,
  syscall: 'watch',
  code: 'EMFILE',
  filename: null
}

Node.js v20.12.2
`, "metro-emfile-watchman", "stored: the tool's own wording")
	h.ask("metro-enospc/1", "sloeberry", "linux", "yarn start", `
Error: ENOSPC: System limit for number of file watchers reached, watch '/home/dev/sloeberry/node_modules/react-native/Libraries/Animated'
    at FSWatcher.<computed> (node:internal/fs/watchers:247:19)
    at Object.watch (node:fs:2469:36)
  errno: -28,
  syscall: 'watch',
  code: 'ENOSPC',
`, "", "never stored: same kind, another error")

	h.note(Note{ID: "flutter-ios-min-target", Project: "kitehop", OS: "macos", Lang: "dart", At: day(2025, 9, 15),
		Title:   "pod install: cloud_firestore needs a higher minimum deployment target",
		What:    "After adding cloud_firestore, `flutter run` on iOS: CocoaPods could not find compatible versions for pod \"cloud_firestore\" ... they required a higher minimum deployment target.",
		Why:     "ios/Podfile still had `platform :ios, '12.0'`; the Firebase SDK needs 13+.",
		Where:   "ios/Podfile, Runner target's IPHONEOS_DEPLOYMENT_TARGET",
		Learned: "Raise it in the Podfile and in the Runner target together, then delete Podfile.lock and reinstall.",
		Fix:     "sed -i '' \"s/platform :ios, '12.0'/platform :ios, '13.0'/\" ios/Podfile && cd ios && rm Podfile.lock && pod install --repo-update"})
	h.ask("flutter-ios-min-target/1", "kitehop", "macos", "flutter run -d 'iPhone 16'", `
Launching lib/main.dart on iPhone 16 in debug mode...
Running pod install...                                             2,311ms
CocoaPods' output:
↳
      [!] CocoaPods could not find compatible versions for pod "cloud_firestore":
        In Podfile:
          cloud_firestore (from §.symlinks/plugins/cloud_firestore/ios§)

      Specs satisfying the §cloud_firestore (from §.symlinks/plugins/cloud_firestore/ios§)§ dependency were found, but they required a higher minimum deployment target.

Error: The plugin "cloud_firestore" requires a higher minimum iOS deployment version than your application is targeting.
To build, increase your application's deployment target to at least 13.0 as described at https://flutter.dev/to/ios-deploy
Error running pod install
Error launching application on iPhone 16.
`, "flutter-ios-min-target", "another tool version's wording")

	h.note(Note{ID: "flutter-kotlin-plugin", Project: "kitehop", OS: "linux", Lang: "dart", At: day(2026, 1, 8),
		Title:   "Flutter: your project requires a newer version of the Kotlin Gradle plugin",
		What:    "After upgrading Flutter to 3.38, `flutter build appbundle` stops: [!] Your project requires a newer version of the Kotlin Gradle plugin.",
		Why:     "android/settings.gradle pinned org.jetbrains.kotlin.android 1.8.22; current plugins are compiled with Kotlin 2.x metadata.",
		Where:   "android/settings.gradle (plugins block)",
		Learned: "Bump the kotlin plugin version in settings.gradle (not build.gradle anymore, since the declarative plugins migration).",
		Fix:     "sed -i 's/id \"org.jetbrains.kotlin.android\" version \"1.8.22\"/id \"org.jetbrains.kotlin.android\" version \"2.1.0\"/' android/settings.gradle"})
	h.ask("flutter-kotlin-plugin/1", "kitehop", "linux", "flutter build appbundle", `
e: file:///home/dev/.pub-cache/hosted/pub.dev/shared_preferences_android-2.4.7/android/src/main/kotlin/io/flutter/plugins/sharedpreferences/SharedPreferencesPlugin.kt Module was compiled with an incompatible version of Kotlin. The binary version of its metadata is 2.1.0, expected version is 1.8.0.

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':shared_preferences_android:compileReleaseKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
   > Compilation error. See log for more details

BUILD FAILED in 48s

┌─ Flutter Fix ──────────────────────────────────────────────────────────────┐
│ [!] Your project requires a newer version of the Kotlin Gradle plugin.     │
│ Find the latest version on https://kotlinlang.org/docs/releases.html#release-details, then update the │
│ version number of the plugin with id "org.jetbrains.kotlin.android" in the │
│ plugins block of /home/dev/kitehop/android/settings.gradle.                │
└────────────────────────────────────────────────────────────────────────────┘
`, "flutter-kotlin-plugin", "stored: the tool's own wording")
	h.ask("flutter-delete-dir/1", "kitehop", "windows", "flutter build windows", u7crlf(`
Building Windows application...
Flutter failed to delete a directory at "build\flutter_assets". The flutter tool cannot access the file or directory.
Please ensure that the SDK and/or project is installed in a location that has read/write permissions for the current user.
`), "", "never stored: another failure; windows console")
}
