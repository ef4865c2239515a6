// WebKitGTK 4.1 (GTK 3 API) with JavaScriptCore and libsoup 3.
#include <webkit2/webkit2.h>
