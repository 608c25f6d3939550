#ifndef PUSHDESK_CLIBXML2_SHIM_H
#define PUSHDESK_CLIBXML2_SHIM_H
/* libxml2's SAX2 push parser, used directly by PushDeskCore/XML/XMLReader.swift (docs/PERFORMANCE.md
   says why not through Foundation's XMLParser). Only the parser: no tree, no DTD loading, no network. */
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so encoding.h would include the system's ICU headers,
   which clash with Foundation's own ICU module in the same compilation ("UErrorCode has
   different definitions in different modules"). Nothing here uses libxml2's ICU converters
   (only pointers to the handler struct are passed around), so its ICU parts are left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

/* Enum constants as plain ints, so Swift sees the same values on every libxml2 2.9+. */
static inline int pd_xml_sax2_magic(void) { return (int)XML_SAX2_MAGIC; }
static inline int pd_xml_parse_recover(void) { return XML_PARSE_RECOVER; }
static inline int pd_xml_parse_nonet(void) { return XML_PARSE_NONET; }
#endif
