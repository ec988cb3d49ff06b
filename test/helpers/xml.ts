/**
 * A strict little XML reader for the JUnit files aide writes (src/cli/render/junit.ts and
 * act-junit.ts): elements, double-quoted attributes, text and the five predefined entities plus
 * character references. It fails on anything a conforming parser would reject in that subset
 * (bad characters, unbalanced or crossed tags, a raw "<" or a bare "&", "]]>" in text, duplicate
 * attributes, more than one root). A full XML parser as a dev dependency would buy little over
 * this for a format we write ourselves.
 */
import assert from 'node:assert/strict';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_][\\w.-]*';
const TOKEN = new RegExp(`<(${NAME})((?:\\s+${NAME}="[^"<]*")*)\\s*(/?)>|</(${NAME})>|([^<]+)`, 'y');
const ATTRIBUTE = new RegExp(`(${NAME})="([^"<]*)"`, 'g');

function decode(raw: string): string {
  assert.doesNotMatch(
    raw,
    /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/,
    `a bare "&" in ${JSON.stringify(raw)}`,
  );
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, ref: string) =>
    ref.startsWith('#x')
      ? String.fromCodePoint(parseInt(ref.slice(2), 16))
      : ref.startsWith('#')
        ? String.fromCodePoint(Number(ref.slice(1)))
        : (named[ref] ?? ''),
  );
}

function openElement(name: string, rawAttributes: string): XmlElement {
  const element: XmlElement = { name, attributes: {}, children: [], text: '' };
  for (const [, key = '', value = ''] of rawAttributes.matchAll(ATTRIBUTE)) {
    assert.ok(!(key in element.attributes), `duplicate attribute ${key} on <${name}>`);
    // Attribute-value normalization: a literal tab or newline becomes a space.
    element.attributes[key] = decode(value.replace(/[\t\n\r]/g, ' '));
  }
  return element;
}

export function parseXml(xml: string): XmlElement {
  assert.doesNotMatch(
    xml,
    /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u,
    'a character XML 1.0 forbids',
  );
  const prolog = '<?xml version="1.0" encoding="UTF-8"?>\n';
  assert.ok(xml.startsWith(prolog), 'the XML declaration');
  const document: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [document];
  TOKEN.lastIndex = prolog.length;
  while (TOKEN.lastIndex < xml.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(xml);
    assert.ok(match, `not well-formed at ${JSON.stringify(xml.slice(at, at + 40))}`);
    const [, open, rawAttributes = '', selfClosing, close, text] = match;
    const top = stack.at(-1) ?? document;
    if (open !== undefined) {
      const element = openElement(open, rawAttributes);
      top.children.push(element);
      if (selfClosing !== '/') stack.push(element);
    } else if (close !== undefined) {
      assert.equal(close, top.name, `</${close}> closes <${top.name}>`);
      stack.pop();
    } else if (text !== undefined) {
      assert.ok(!text.includes(']]>'), '"]]>" in text');
      if (top === document) assert.match(text, /^\s*$/, 'text outside the root element');
      top.text += decode(text);
    }
  }
  assert.equal(stack.length, 1, `unclosed <${stack.at(-1)?.name ?? ''}>`);
  assert.equal(document.children.length, 1, 'one root element');
  return document.children[0] as XmlElement;
}

export const child = (element: XmlElement, name: string) => element.children.find((c) => c.name === name);

/** Every child element named `name`. */
export const children = (element: XmlElement, name: string) =>
  element.children.filter((c) => c.name === name);
