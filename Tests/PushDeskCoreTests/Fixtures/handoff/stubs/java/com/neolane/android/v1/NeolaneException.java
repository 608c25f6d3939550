// Test stub.
package com.neolane.android.v1;

public class NeolaneException extends Exception {
    private static final long serialVersionUID = 1L;

    public String getErrorString() { return getMessage(); }
}
