"""The draft engine's plain-Python pieces: the MTR clocks and rounds (``timing``), the
automatic drafter's choice (``autopick``) and pack collation (``collation``). No Django (an
import contract says so): the stored functions are rendered from these values
(``drafts.sql``) and the paper caller and the engine's model test use them as they are."""
