package io.refstore.batch.archfixture.two;

import io.refstore.batch.archfixture.one.One;

/** The other half of the package cycle of {@link One}. */
public final class Two {

	One next;

}
