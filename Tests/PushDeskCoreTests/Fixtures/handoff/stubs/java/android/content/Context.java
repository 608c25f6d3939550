// Test stub: only what the generated snippet uses, so javac can check it without the Android SDK.
package android.content;

public abstract class Context {}
