package io.refstore.core.archfixture.one;

import io.refstore.core.archfixture.two.Two;

/** Half of a package cycle that {@code CoreArchitectureTest} must find. */
public final class One {

	Two next;

}
