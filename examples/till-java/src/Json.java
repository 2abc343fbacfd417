import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer, enough for the bridge's JSON-RPC frames, so the till needs no jar.
 *
 * Reading gives Map (object, keys in order), List (array), String, Long (a whole number that fits),
 * BigInteger (a larger whole number), BigDecimal (a number with a fraction or exponent), Boolean and null.
 * Whole numbers stay exact: a transaction id or a JSON-RPC id written as a Java long comes back as the same long.
 * Use a full JSON library in production if you have one; this one is here to be read.
 */
public final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Reads one JSON value; anything but whitespace after it is an error. */
    public static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.readValue();
        reader.skipWhitespace();
        if (reader.pos != text.length()) throw reader.error("unexpected text after the value");
        return value;
    }

    /** Writes a value of the types {@link #parse} gives (any Number, any Map with String keys, any List). */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        writeValue(value, out);
        return out.toString();
    }

    /** Builds an object from key, value, key, value...: {@code Json.object("paymentId", id, "phase", "new")}. */
    public static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }

    // ---- reading ----

    private Object readValue() {
        skipWhitespace();
        if (pos >= text.length()) throw error("unexpected end");
        char c = text.charAt(pos);
        switch (c) {
            case '{': return readObject();
            case '[': return readArray();
            case '"': return readString();
            case 't': return readWord("true", Boolean.TRUE);
            case 'f': return readWord("false", Boolean.FALSE);
            case 'n': return readWord("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return readNumber();
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> readObject() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++; // {
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return map;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') throw error("expected a key");
            String key = readString();
            skipWhitespace();
            expect(':');
            map.put(key, readValue());
            skipWhitespace();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                return map;
            }
        }
    }

    private List<Object> readArray() {
        List<Object> list = new ArrayList<>();
        pos++; // [
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            list.add(readValue());
            skipWhitespace();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                return list;
            }
        }
    }

    private String readString() {
        StringBuilder out = new StringBuilder();
        pos++; // opening quote
        while (true) {
            if (pos >= text.length()) throw error("unterminated string");
            char c = text.charAt(pos++);
            if (c == '"') return out.toString();
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) throw error("unterminated escape");
            char e = text.charAt(pos++);
            switch (e) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (pos + 4 > text.length()) throw error("short \\u escape");
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                    break;
                default: throw error("bad escape \\" + e);
            }
        }
    }

    private Object readNumber() {
        int start = pos;
        boolean whole = true;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            if (".eE".indexOf(text.charAt(pos)) >= 0) whole = false;
            pos++;
        }
        String number = text.substring(start, pos);
        try {
            if (!whole) return new BigDecimal(number);
            BigInteger big = new BigInteger(number);
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        } catch (NumberFormatException e) {
            throw error("bad number " + number);
        }
    }

    private Object readWord(String word, Object value) {
        if (!text.startsWith(word, pos)) throw error("unexpected word");
        pos += word.length();
        return value;
    }

    private void skipWhitespace() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) pos++;
    }

    private char peek() {
        if (pos >= text.length()) throw error("unexpected end");
        return text.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) throw error("expected '" + c + "'");
        pos++;
    }

    private IllegalArgumentException error(String why) {
        return new IllegalArgumentException("JSON: " + why + " at offset " + pos);
    }

    // ---- writing ----

    private static void writeValue(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            writeString((String) value, out);
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = ((Map<?, ?>) value).entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                writeString((String) entry.getKey(), out);
                out.append(':');
                writeValue(entry.getValue(), out);
                if (entries.hasNext()) out.append(',');
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            Iterator<?> items = ((List<?>) value).iterator();
            while (items.hasNext()) {
                writeValue(items.next(), out);
                if (items.hasNext()) out.append(',');
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("JSON: cannot write a " + value.getClass().getName());
        }
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        out.append('"');
    }
}
