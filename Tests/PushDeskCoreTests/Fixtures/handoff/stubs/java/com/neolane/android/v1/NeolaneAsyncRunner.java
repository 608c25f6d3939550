// Test stub of the Campaign Android SDK async runner (calls as in seed 001).
package com.neolane.android.v1;

import android.content.Context;
import java.io.IOException;
import java.util.Map;

public class NeolaneAsyncRunner {
    public interface RequestListener {
        void onComplete(String response, Object state);
        void onNeolaneException(NeolaneException e, Object state);
        void onIOException(IOException e, Object state);
    }

    public NeolaneAsyncRunner(Neolane neolane) {}

    public void registerDevice(String registrationId, String userKey, Map<String, Object> additionalParams,
                               Context context, RequestListener listener) {}
}
