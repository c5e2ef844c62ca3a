"""The floor link: every table's journal on a NATS JetStream bus, the floor service, linked progressives.

``schema`` names the subjects and message formats (versioned, docs/floor.md);
``publisher`` runs in the table daemon and sends committed journal records
(the journal is the outbox); ``service`` is ``tablectl floor``: it consumes
every table's stream, checks the hash chains and keeps the floor's state;
``link`` is the controller of one linked progressive; ``web`` is the floor view.
"""
