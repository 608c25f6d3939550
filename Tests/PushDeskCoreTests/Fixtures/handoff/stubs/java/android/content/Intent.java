// Test stub (Android SDK signature).
package android.content;

public class Intent {
    public String getStringExtra(String name) { return null; }
}
