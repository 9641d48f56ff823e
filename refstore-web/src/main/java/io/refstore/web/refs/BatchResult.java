package io.refstore.web.refs;

import java.util.List;

/**
 * The result of an applied batch: every update was applied.
 *
 * @param committed always {@code true} here (a refused batch is a problem response with
 * the same results)
 * @param results one per update, in request order
 */
public record BatchResult(boolean committed, List<UpdateOutcome> results) {
}
