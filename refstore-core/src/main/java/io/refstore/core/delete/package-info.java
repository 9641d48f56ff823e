/**
 * Mass deletion of refs and its exact undo, on any {@link io.refstore.core.ref.RefStore}.
 *
 * <ul>
 * <li>{@link io.refstore.core.delete.RefSelection}: what to delete (names, prefixes,
 * {@code for-each-ref} globs, exclusions), checked as it is built.</li>
 * <li>{@link io.refstore.core.delete.RefDeleter}: a streaming dry run, and the deletion
 * in chunked compare-and-swap transactions, each recorded in a
 * {@link io.refstore.core.delete.Manifest} before it commits.</li>
 * <li>{@link io.refstore.core.delete.RefRestorer}: recreates the refs and reflogs of a
 * manifest's committed chunks.</li>
 * </ul>
 * The package reaches the backends only through the {@code RefStore} contract and
 * {@link io.refstore.core.store.RefStores}, so both storage formats behave the same.
 */
package io.refstore.core.delete;
