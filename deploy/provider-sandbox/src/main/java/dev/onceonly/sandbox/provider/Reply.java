package dev.onceonly.sandbox.provider;

import java.util.Map;

/**
 * The answer to one provider call, before it is written.
 *
 * @param status HTTP status
 * @param contentType media type of {@code body}
 * @param body the bytes to write
 * @param headers extra headers
 * @param drop close the connection instead of answering
 * @param outcome how the call ended, for the stats and the call log
 */
public record Reply(
    int status,
    String contentType,
    byte[] body,
    Map<String, String> headers,
    boolean drop,
    String outcome) {

  /** The same answer, recorded under another outcome. */
  public Reply withOutcome(String newOutcome) {
    return new Reply(status, contentType, body, headers, drop, newOutcome);
  }
}
