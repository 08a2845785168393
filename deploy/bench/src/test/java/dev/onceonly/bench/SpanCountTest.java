package dev.onceonly.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SpanCountTest {

  @Test
  void countsSpansAcrossResourcesAndScopesOnly() {
    byte[] span = message(len(1, bytes("trace-id")), varint(7, 1), fixed64(8), len(9, bytes("a")));
    // Resource (field 1) and scope (field 1) hold field-2 messages of their own: not spans.
    byte[] resource = len(1, message(len(2, bytes("service.name")), len(2, bytes("x"))));
    byte[] scope = len(1, message(len(2, bytes("scope-version"))));
    byte[] scopeOfThree =
        message(scope, len(2, span), len(2, span), len(2, span), len(3, bytes("u")));
    byte[] scopeOfOne = message(len(2, span));
    byte[] scopeOfTwo = message(scope, len(2, span), len(2, span));
    byte[] request =
        message(
            len(1, message(resource, len(2, scopeOfThree), len(2, scopeOfOne))),
            len(1, message(resource, len(2, scopeOfTwo), len(3, bytes("schema-url")))));

    assertThat(SpanCount.of(request)).isEqualTo(6);
  }

  @Test
  void emptyRequestHasNoSpans() {
    assertThat(SpanCount.of(new byte[0])).isZero();
  }

  @Test
  void refusesATruncatedMessage() {
    byte[] request = message(len(1, message(len(2, message(len(2, bytes("span")))))));
    byte[] cut = Arrays.copyOf(request, request.length - 2);

    assertThatThrownBy(() -> SpanCount.of(cut)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesAnUnknownWireType() {
    assertThatThrownBy(() -> SpanCount.of(new byte[] {(byte) ((1 << 3) | 7), 0}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] message(byte[]... fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] f : fields) {
      out.writeBytes(f);
    }
    return out.toByteArray();
  }

  private static byte[] len(int field, byte[] content) {
    return message(rawVarint((field << 3) | 2), rawVarint(content.length), content);
  }

  private static byte[] varint(int field, long value) {
    return message(rawVarint(field << 3), rawVarint(value));
  }

  private static byte[] fixed64(int field) {
    return message(rawVarint((field << 3) | 1), new byte[8]);
  }

  private static byte[] rawVarint(long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((value & ~0x7fL) != 0) {
      out.write((int) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
    return out.toByteArray();
  }
}
