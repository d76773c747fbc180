// GE_API marks what libge.so exports: the public API. Everything else in the library is built with hidden
// visibility, so that code inside it binds locally (direct calls and data access under -fPIC, as in an
// executable) and users see only include/ge.
#pragma once

#if defined(__GNUC__)
#define GE_API [[gnu::visibility("default")]]
#else
#define GE_API
#endif
