"""ぱんつぁーへくせん (Panzer Hexen): witches against ネウロイ, an engine-building game for 2-5 players."""
