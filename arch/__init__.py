"""Architecture description files and the device model built from them."""
