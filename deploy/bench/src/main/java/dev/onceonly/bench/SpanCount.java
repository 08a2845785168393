package dev.onceonly.bench;

/**
 * Counts the spans in an OTLP {@code ExportTraceServiceRequest} (protobuf) by walking the wire
 * format, without the OTLP classes: request field 1 {@code resource_spans}, in it field 2 {@code
 * scope_spans}, in that field 2 {@code spans}. Other fields are skipped by their wire type.
 */
final class SpanCount {

  private static final int VARINT = 0;
  private static final int I64 = 1;
  private static final int LEN = 2;
  private static final int I32 = 5;

  /** The path of length-delimited fields from the request down to one span. */
  private static final int[] PATH = {1, 2, 2};

  private SpanCount() {}

  /** Spans in one encoded request; {@link IllegalArgumentException} if it is not protobuf. */
  static long of(byte[] request) {
    return count(request, 0, request.length, 0);
  }

  private static long count(byte[] b, int from, int to, int depth) {
    long found = 0;
    int[] pos = {from};
    while (pos[0] < to) {
      long tag = varint(b, pos, to);
      int field = (int) (tag >>> 3);
      int type = (int) (tag & 7);
      switch (type) {
        case VARINT -> varint(b, pos, to);
        case I64 -> pos[0] += 8;
        case I32 -> pos[0] += 4;
        case LEN -> {
          long length = varint(b, pos, to);
          int start = pos[0];
          if (length < 0 || length > to - start) {
            throw new IllegalArgumentException("length " + length + " beyond the message");
          }
          int end = start + (int) length;
          if (field == PATH[depth]) {
            found += depth == PATH.length - 1 ? 1 : count(b, start, end, depth + 1);
          }
          pos[0] = end;
        }
        default -> throw new IllegalArgumentException("wire type " + type + " at " + pos[0]);
      }
      if (pos[0] > to) {
        throw new IllegalArgumentException("field runs past the message");
      }
    }
    return found;
  }

  private static long varint(byte[] b, int[] pos, int to) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos[0] >= to) {
        throw new IllegalArgumentException("truncated varint");
      }
      byte next = b[pos[0]++];
      value |= (long) (next & 0x7f) << shift;
      if (next >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("varint longer than 64 bits");
  }
}
