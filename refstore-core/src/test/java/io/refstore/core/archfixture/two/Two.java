package io.refstore.core.archfixture.two;

import io.refstore.core.archfixture.one.One;

/** The other half of the package cycle of {@link One}. */
public final class Two {

	One next;

}
