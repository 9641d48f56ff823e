package io.refstore.core.archfixture.one;

import io.refstore.core.files.FilesLayout;

/**
 * Reaches a backend around {@code core.store}, which {@code CoreArchitectureTest} must
 * find.
 */
final class UsesBackend {

	Class<?> backend = FilesLayout.class;

}
