// JSON reading and writing, small enough to read: objects become Dictionary<string, object>, arrays List<object>,
// whole numbers long (kopecks and seq stay exact), other numbers double. The .NET Framework has no general JSON
// reader in the box (DataContractJsonSerializer wants a class per shape), and a till vendor may not take a package.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace WalletTill
{
    /// <summary>Parses and writes JSON text.</summary>
    public static class Json
    {
        /// <summary>Parses one JSON value; FormatException when the text is not JSON.</summary>
        public static object Parse(string text)
        {
            var reader = new Reader(text);
            object value = reader.ReadValue();
            reader.SkipSpace();
            if (!reader.AtEnd) throw new FormatException("text after the JSON value at " + reader.Position);
            return value;
        }

        /// <summary>Writes a value: dictionaries, lists, strings, numbers, booleans and null.</summary>
        public static string Write(object value)
        {
            var text = new StringBuilder();
            WriteValue(text, value);
            return text.ToString();
        }

        /// <summary>A field of an object, or null when the object lacks it (or is no object).</summary>
        public static object Field(object obj, string name)
        {
            var map = obj as IDictionary<string, object>;
            object value;
            return map != null && map.TryGetValue(name, out value) ? value : null;
        }

        /// <summary>A field as text (numbers printed), or null.</summary>
        public static string Text(object obj, string name)
        {
            object value = Field(obj, name);
            if (value == null) return null;
            return value as string ?? Convert.ToString(value, CultureInfo.InvariantCulture);
        }

        /// <summary>A whole-number field, or the fallback when absent or not a whole number.</summary>
        public static long Long(object obj, string name, long fallback)
        {
            object value = Field(obj, name);
            return value is long ? (long)value : fallback;
        }

        static void WriteValue(StringBuilder text, object value)
        {
            if (value == null) text.Append("null");
            else if (value is string) WriteString(text, (string)value);
            else if (value is bool) text.Append((bool)value ? "true" : "false");
            else if (value is IDictionary<string, object>)
            {
                text.Append('{');
                bool first = true;
                foreach (var pair in (IDictionary<string, object>)value)
                {
                    if (!first) text.Append(',');
                    first = false;
                    WriteString(text, pair.Key);
                    text.Append(':');
                    WriteValue(text, pair.Value);
                }
                text.Append('}');
            }
            else if (value is IEnumerable)
            {
                text.Append('[');
                bool first = true;
                foreach (object item in (IEnumerable)value)
                {
                    if (!first) text.Append(',');
                    first = false;
                    WriteValue(text, item);
                }
                text.Append(']');
            }
            else if (value is double) text.Append(((double)value).ToString("R", CultureInfo.InvariantCulture));
            else text.Append(Convert.ToString(value, CultureInfo.InvariantCulture));
        }

        static void WriteString(StringBuilder text, string s)
        {
            text.Append('"');
            foreach (char c in s)
            {
                if (c == '"' || c == '\\') text.Append('\\').Append(c);
                else if (c < ' ') text.Append("\\u").Append(((int)c).ToString("x4"));
                else text.Append(c);
            }
            text.Append('"');
        }

        sealed class Reader
        {
            readonly string text;
            int at;

            public Reader(string text) { this.text = text; }

            public bool AtEnd { get { return at >= text.Length; } }
            public int Position { get { return at; } }

            public void SkipSpace()
            {
                while (at < text.Length && " \t\n\r".IndexOf(text[at]) >= 0) at++;
            }

            public object ReadValue()
            {
                SkipSpace();
                if (AtEnd) throw new FormatException("JSON ends too soon");
                char c = text[at];
                if (c == '{') return ReadObject();
                if (c == '[') return ReadArray();
                if (c == '"') return ReadString();
                if (Take("true")) return true;
                if (Take("false")) return false;
                if (Take("null")) return null;
                return ReadNumber();
            }

            bool Take(string word)
            {
                if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) return false;
                at += word.Length;
                return true;
            }

            void Expect(char c)
            {
                SkipSpace();
                if (AtEnd || text[at] != c) throw new FormatException("expected '" + c + "' at " + at);
                at++;
            }

            Dictionary<string, object> ReadObject()
            {
                var map = new Dictionary<string, object>();
                Expect('{');
                SkipSpace();
                if (!AtEnd && text[at] == '}') { at++; return map; }
                while (true)
                {
                    SkipSpace();
                    string key = ReadString();
                    Expect(':');
                    map[key] = ReadValue();
                    SkipSpace();
                    if (!AtEnd && text[at] == ',') { at++; continue; }
                    Expect('}');
                    return map;
                }
            }

            List<object> ReadArray()
            {
                var list = new List<object>();
                Expect('[');
                SkipSpace();
                if (!AtEnd && text[at] == ']') { at++; return list; }
                while (true)
                {
                    list.Add(ReadValue());
                    SkipSpace();
                    if (!AtEnd && text[at] == ',') { at++; continue; }
                    Expect(']');
                    return list;
                }
            }

            string ReadString()
            {
                Expect('"');
                var s = new StringBuilder();
                while (true)
                {
                    if (AtEnd) throw new FormatException("unterminated string");
                    char c = text[at++];
                    if (c == '"') return s.ToString();
                    if (c != '\\') { s.Append(c); continue; }
                    if (AtEnd) throw new FormatException("unterminated escape");
                    char e = text[at++];
                    switch (e)
                    {
                        case 'n': s.Append('\n'); break;
                        case 't': s.Append('\t'); break;
                        case 'r': s.Append('\r'); break;
                        case 'b': s.Append('\b'); break;
                        case 'f': s.Append('\f'); break;
                        case 'u':
                            if (at + 4 > text.Length) throw new FormatException("short \\u escape");
                            s.Append((char)int.Parse(text.Substring(at, 4), NumberStyles.HexNumber));
                            at += 4;
                            break;
                        default: s.Append(e); break;
                    }
                }
            }

            object ReadNumber()
            {
                int start = at;
                while (at < text.Length && "+-0123456789.eE".IndexOf(text[at]) >= 0) at++;
                string number = text.Substring(start, at - start);
                if (number.Length == 0) throw new FormatException("unexpected character at " + start);
                long whole;
                if (long.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out whole))
                    return whole;
                return double.Parse(number, NumberStyles.Float, CultureInfo.InvariantCulture);
            }
        }
    }
}
