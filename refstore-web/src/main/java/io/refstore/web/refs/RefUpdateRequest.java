package io.refstore.web.refs;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One update of {@code POST .../refs:batch}, as in {@code git update-ref --stdin}.
 *
 * @param ref the full ref name
 * @param old the expected current value: absent or {@code null} for no check, all zeros
 * for "must not exist"
 * @param value the new value (JSON member {@code new}): all zeros deletes the ref
 */
public record RefUpdateRequest(String ref, String old, @JsonProperty("new") String value) {
}
