package dev.onceonly.testsupport.sweep;

import java.util.Map;

/**
 * One request of a sweep and the problem it must get back.
 *
 * @param what what is wrong with it, for the report
 * @param credentials {@code user:password}, or null for none
 * @param query the raw (already encoded) query string, without {@code ?}, or empty
 * @param headers extra request headers
 * @param body the body; null for none
 * @param chunked send the body without a declared length
 * @param status the status it must get
 * @param detail a fragment the problem's detail must contain (ignoring case); null: any detail
 */
public record Probe(
    String what,
    String method,
    String path,
    String credentials,
    String query,
    Map<String, String> headers,
    String body,
    boolean chunked,
    int status,
    String detail) {}
