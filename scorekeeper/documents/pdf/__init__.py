"""PDF builders: plain data in, the bytes of a PDF file out. No Django import: views wrap them."""
